import { useMemo } from 'react';
import { kasten } from '../../api';
import { noteProperties, type PropertyValue } from './note-properties';
import { TagLink } from './TagLink';
import type { OpenNote } from './WikiLink';

/** A note's properties above its text, as a table, as Obsidian's reading view shows them. */
export function NoteProperties({
  content,
  path,
  onOpen,
}: {
  content: string;
  path: string;
  onOpen: OpenNote;
}) {
  const read = useMemo(() => noteProperties(content), [content]);
  if (!read) return null;
  if (!read.ok)
    return (
      <section className="note-properties" aria-label="Properties">
        <p className="embed-missing">Invalid properties: {read.reason}</p>
        <pre>{read.yaml}</pre>
      </section>
    );
  return (
    <section className="note-properties" aria-label="Properties">
      <table>
        <tbody>
          {read.properties.map(({ key, values }) => (
            <tr key={key}>
              <th scope="row" title={key}>
                {key}
              </th>
              <td>
                <div className="property-values">
                  {values.length === 0 ? (
                    <span className="muted">Empty</span>
                  ) : (
                    values.map((value, index) => (
                      <PropertyItem key={index} value={value} name={key} path={path} onOpen={onOpen} />
                    ))
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function PropertyItem({
  value,
  name,
  path,
  onOpen,
}: {
  value: PropertyValue;
  name: string;
  path: string;
  onOpen: OpenNote;
}) {
  switch (value.kind) {
    case 'tag':
      return <TagLink tag={value.tag} />;
    case 'checkbox':
      return <input type="checkbox" checked={value.checked} disabled aria-label={name} />;
    case 'url':
      return (
        <a className="property-value" href={value.url} target="_blank" rel="noreferrer noopener">
          {value.url}
        </a>
      );
    case 'link':
      return (
        <a
          href="#"
          className="property-value wikilink"
          onClick={(event) => {
            event.preventDefault();
            void openFrom(path, value.link.target, value.link.subpath, onOpen);
          }}
        >
          {value.text}
        </a>
      );
    case 'text':
      return <span className="property-value">{value.text}</span>;
  }
}

/** A link in a property, resolved from the note it is in, as the links in its text are. */
async function openFrom(from: string, target: string, subpath: string | null, onOpen: OpenNote) {
  const [found] = await kasten.links.resolve({ links: [{ target, subpath }], from }).catch(() => []);
  if (found?.path && found.kind === 'note') onOpen(found.path, found.subpathLine, subpath);
}
