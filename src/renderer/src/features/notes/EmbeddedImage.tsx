import { useEffect, useState } from 'react';
import { describeError, kasten } from '../../api';

function toBlobUrl(base64: string, mimeType: string): string {
  const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  return URL.createObjectURL(new Blob([bytes], { type: mimeType }));
}

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
  const [state, setState] = useState<{ url?: string; error?: string }>({});

  useEffect(() => {
    let url: string | undefined;
    let cancelled = false;
    kasten.attachments.read({ path }).then(
      (file) => {
        if (cancelled) return;
        url = toBlobUrl(file.base64, file.mimeType);
        setState({ url });
      },
      (error: unknown) => !cancelled && setState({ error: describeError(error) }),
    );
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [path]);

  if (state.error)
    return (
      <span className="embed-missing">
        Image {path}: {state.error}
      </span>
    );
  if (!state.url) return <span className="embed-loading" aria-busy="true" />;
  return <img className="embedded-image" src={state.url} alt={alt} width={width} height={height} />;
}
