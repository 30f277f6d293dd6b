import { useEffect, useState } from 'react';
import type { PriceQuote, PriceRow, PriceTable } from '../../../../shared/cost/cost-domain';
import { priceSourceNames } from '../../../../shared/cost/cost-text';
import { describeError, kasten } from '../../api';
import { useSettingsStore } from './settings-store';
import './price-settings.css';

type Draft = { input: string; cachedInput: string; output: string };

function draftOf(quote: PriceQuote): Draft {
  if (quote.kind !== 'priced') return { input: '', cachedInput: '', output: '' };
  const { input, cachedInput, output } = quote.price;
  return {
    input: String(input),
    cachedInput: cachedInput === null ? '' : String(cachedInput),
    output: String(output),
  };
}

function sourceText(quote: PriceQuote): string {
  if (quote.kind === 'local') return 'none: a local server';
  if (quote.kind === 'unknown') return 'price unknown';
  return priceSourceNames[quote.source];
}

/** A number of dollars as typed, or a message saying what is wrong with it. */
function amount(text: string, name: string): number | string {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value)) return `The ${name} price must be a number.`;
  return value;
}

/** One model's prices, editable; Save makes them the user's, Reset goes back to the server's or the list's. */
function PriceRowView({ row, onTable }: { row: PriceRow; onTable: (table: PriceTable) => void }) {
  const [draft, setDraft] = useState(() => draftOf(row.quote));
  const [error, setError] = useState<string | null>(null);
  const changed = JSON.stringify(draft) !== JSON.stringify(draftOf(row.quote));
  const save = async () => {
    const input = amount(draft.input, 'input');
    const output = amount(draft.output, 'output');
    const cached = draft.cachedInput.trim() === '' ? null : amount(draft.cachedInput, 'cached input');
    const problem = [input, cached, output].find((value) => typeof value === 'string');
    if (problem !== undefined) return setError(problem as string);
    try {
      setError(null);
      onTable(
        await kasten.prices.set({
          model: row.model,
          input: input as number,
          cachedInput: cached as number | null,
          output: output as number,
        }),
      );
    } catch (failure) {
      setError(describeError(failure));
    }
  };
  const field = (key: keyof Draft, label: string) => (
    <td>
      <input
        type="text"
        inputMode="decimal"
        aria-label={`${row.model}: ${label} price per million tokens`}
        placeholder={key === 'cachedInput' ? '= input' : '—'}
        value={draft[key]}
        onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
      />
    </td>
  );
  return (
    <tr data-testid="price-row" data-model={row.model}>
      <th scope="row">{row.model}</th>
      {field('input', 'input')}
      {field('cachedInput', 'cached input')}
      {field('output', 'output')}
      <td className="muted small" data-testid="price-source">
        {sourceText(row.quote)}
        {error && (
          <span className="field-note error" role="alert">
            {' '}
            {error}
          </span>
        )}
      </td>
      <td className="price-actions">
        <button type="button" disabled={!changed} onClick={() => void save()}>
          Save price
        </button>
        {row.edited && (
          <button type="button" onClick={() => void kasten.prices.reset({ model: row.model }).then(onTable)}>
            Reset price
          </button>
        )}
      </td>
    </tr>
  );
}

/** Settings → Cost: what the configured server's models cost per million tokens, editable per model. */
export function PriceSettings() {
  const settings = useSettingsStore((state) => state.setup?.settings);
  const [table, setTable] = useState<PriceTable | null>(null);
  const [error, setError] = useState<string | null>(null);
  const server = `${settings?.baseUrl} ${settings?.model}`;
  useEffect(() => {
    kasten.prices.list().then(setTable, (failure: unknown) => setError(describeError(failure)));
  }, [server]);
  return (
    <section className="settings-section" aria-label="Cost">
      <h3>Cost</h3>
      <p className="field-note">
        US dollars per million tokens, used to price each answer as it is written (an answer keeps the price
        it was priced at). Your price wins; else the one the server lists (OpenRouter), else the provider’s
        list price. A server on this machine or network costs nothing unless you give it a price.
        {table?.local && ' This server is local.'}
      </p>
      {error && <p className="field-note error">{error}</p>}
      {table && table.rows.length === 0 && <p className="field-note">Choose a model to price it.</p>}
      {table && table.rows.length > 0 && (
        <table className="price-table" data-testid="price-table">
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Input</th>
              <th scope="col">Cached input</th>
              <th scope="col">Output</th>
              <th scope="col">Source</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              // A new price from the main process starts the row's draft afresh.
              <PriceRowView key={`${row.model} ${JSON.stringify(row.quote)}`} row={row} onTable={setTable} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
