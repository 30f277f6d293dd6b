import { searchTag } from './search-tag';

/** A `#tag` in a note or its properties: a click searches the vault for it, as in Obsidian. */
export function TagLink({ tag }: { tag: string }) {
  return (
    <a
      href="#"
      className="tag"
      data-tag={tag}
      title={`Search for #${tag}`}
      onClick={(event) => {
        event.preventDefault();
        searchTag(tag);
      }}
    >
      #{tag}
    </a>
  );
}
