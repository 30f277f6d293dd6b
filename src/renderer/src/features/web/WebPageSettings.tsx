import { useEffect, useState } from 'react';
import type { WebSettings } from '../../../../shared/web-contract';
import { describeError, kasten } from '../../api';

/** Whether pages on this computer and the local network may be fetched: off unless the user says so. */
export function WebPageSettings() {
  const [settings, setSettings] = useState<WebSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void kasten.web.settings().then(setSettings, (failure: unknown) => setError(describeError(failure)));
  }, []);
  const change = (allowPrivateAddresses: boolean) =>
    kasten.web
      .configure({ allowPrivateAddresses })
      .then(setSettings, (failure: unknown) => setError(describeError(failure)));
  return (
    <section className="settings-section" aria-label="Web pages">
      <h3>Web pages</h3>
      <p className="field-note">
        An http or https address in a message is fetched by Kasten (not by this page), reduced to its article
        and given to the model with your question. Addresses on this computer, the local network and cloud
        metadata services are refused, however a name resolves, unless you allow them here.
      </p>
      <label className="checkbox">
        <input
          type="checkbox"
          disabled={settings === null}
          checked={settings?.allowPrivateAddresses ?? false}
          onChange={(event) => void change(event.target.checked)}
        />
        Allow pages on loopback and private network addresses
      </label>
      {error && (
        <p className="error small" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
