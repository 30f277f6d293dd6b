import { useVaultFile } from './use-vault-file';

/** An image from the vault, fetched through the contract (no file URLs reach the page). */
export function EmbeddedImage({
  path,
  alt,
  width,
  height,
}: {
  path: string;
  alt: string;
  width?: number;
  height?: number;
}) {
  const { file, error } = useVaultFile(path);
  if (error)
    return (
      <span className="embed-missing">
        Image {path}: {error}
      </span>
    );
  if (!file) return <span className="embed-loading" aria-busy="true" />;
  return <img className="embedded-image" src={file.url} alt={alt} width={width} height={height} />;
}
