// Exchanges a vault folder with a symlink to a folder outside, atomically and as fast as it can, until
// the stop file appears, `maxSwaps` is reached or `maxMs` pass; it always stops with the folder back.
import { existsSync } from 'node:fs';
import { swapSync } from 'fs-native-extensions';

const [folder, link, stopFile, maxSwaps, maxMs] = process.argv.slice(2);
const until = Date.now() + Number(maxMs);
let swaps = 0;
process.send?.({ ready: true });
while (swaps < Number(maxSwaps) && Date.now() < until && !(swaps % 64 === 0 && existsSync(stopFile))) {
  swapSync(folder, link);
  swapSync(folder, link);
  swaps += 2;
}
process.send?.({ swaps }, () => process.exit(0));
