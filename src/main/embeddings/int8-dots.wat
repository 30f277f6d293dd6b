;; The source of the WebAssembly in int8-dots.ts (`npx wat2wasm int8-dots.wat`; the unit test
;; int8-dots.test.ts checks that the two agree). One function: the dot product of a query of int16
;; values with each of `rows` rows of int8 values, `stride` bytes apart (a multiple of 32), as int32.
(module
  (import "kasten" "memory" (memory 1))
  (func (export "dots") (param $query i32) (param $data i32) (param $rows i32) (param $stride i32) (param $out i32)
    (local $at i32) (local $end i32) (local $low v128) (local $high v128) (local $x v128) (local $y v128)
    (block $done
      (loop $row
        (br_if $done (i32.eqz (local.get $rows)))
        (local.set $low (v128.const i32x4 0 0 0 0))
        (local.set $high (v128.const i32x4 0 0 0 0))
        (local.set $at (local.get $query))
        (local.set $end (i32.add (local.get $data) (local.get $stride)))
        ;; 32 bytes of the row a turn: each half widened to int16, multiplied by 8 int16 of the query
        ;; and summed in pairs into 4 int32 lanes; two sums, so that one need not wait for the other.
        (loop $turn
          (local.set $x (v128.load (local.get $data)))
          (local.set $y (v128.load offset=16 (local.get $data)))
          (local.set $low (i32x4.add (local.get $low)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $x)) (v128.load (local.get $at)))))
          (local.set $high (i32x4.add (local.get $high)
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $x)) (v128.load offset=16 (local.get $at)))))
          (local.set $low (i32x4.add (local.get $low)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $y)) (v128.load offset=32 (local.get $at)))))
          (local.set $high (i32x4.add (local.get $high)
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $y)) (v128.load offset=48 (local.get $at)))))
          (local.set $data (i32.add (local.get $data) (i32.const 32)))
          (local.set $at (i32.add (local.get $at) (i32.const 64)))
          (br_if $turn (i32.lt_u (local.get $data) (local.get $end))))
        (local.set $low (i32x4.add (local.get $low) (local.get $high)))
        (i32.store (local.get $out)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $low)) (i32x4.extract_lane 1 (local.get $low)))
            (i32.add (i32x4.extract_lane 2 (local.get $low)) (i32x4.extract_lane 3 (local.get $low)))))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (local.set $rows (i32.sub (local.get $rows) (i32.const 1)))
        (br $row)))))
