// The package ships no types; only what the vault's writes use is declared.
declare module 'fs-native-extensions' {
  /** Exchanges the two paths' entries atomically (renameat2 RENAME_EXCHANGE; on Windows three renames). */
  export function swap(from: string, to: string): Promise<void>;
  export function swapSync(from: string, to: string): void;
}
