import type { Code, Construct, Effects, Extension, State, TokenizeContext } from 'micromark-util-types';
import { isWikiLinkStop, parseWikiLinkInner } from './wikilink-inner';

declare module 'micromark-util-types' {
  interface TokenTypeMap {
    wikiLink: 'wikiLink';
    wikiEmbed: 'wikiEmbed';
    wikiLinkMarker: 'wikiLinkMarker';
    wikiLinkData: 'wikiLinkData';
  }
}

const exclamationMark = 0x21;
const leftBracket = 0x5b;
const rightBracket = 0x5d;

function isEnd(code: Code): boolean {
  // null is the end of input; negative codes below -2 are line endings.
  return code === null || code < -2 || isWikiLinkStop(code);
}

function tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  let inner = '';
  let type: 'wikiLink' | 'wikiEmbed' = 'wikiLink';

  const start: State = (code) => {
    if (code === exclamationMark) {
      type = 'wikiEmbed';
      effects.enter(type);
      effects.enter('wikiLinkMarker');
      effects.consume(code);
      return firstBracket;
    }
    if (code !== leftBracket) return nok(code);
    effects.enter(type);
    effects.enter('wikiLinkMarker');
    return firstBracket(code);
  };
  const firstBracket: State = (code) => {
    if (code !== leftBracket) return nok(code);
    effects.consume(code);
    return secondBracket;
  };
  const secondBracket: State = (code) => {
    if (code !== leftBracket) return nok(code);
    effects.consume(code);
    effects.exit('wikiLinkMarker');
    effects.enter('wikiLinkData');
    return data;
  };
  const data: State = (code) => {
    if (isEnd(code)) return nok(code);
    if (code === rightBracket) {
      if (parseWikiLinkInner(inner) === null) return nok(code);
      effects.exit('wikiLinkData');
      effects.enter('wikiLinkMarker');
      effects.consume(code);
      return closing;
    }
    // Tabs arrive as a tab code followed by virtual spaces (-1), which are not characters of the source.
    if (code !== null && code !== -1) inner += code === -2 ? '\t' : String.fromCharCode(code);
    effects.consume(code);
    return data;
  };
  const closing: State = (code) => {
    if (code !== rightBracket) return nok(code);
    effects.consume(code);
    effects.exit('wikiLinkMarker');
    effects.exit(type);
    return ok;
  };
  return start;
}

const wikiLink: Construct = { name: 'wikiLink', tokenize };

/** micromark syntax for `[[wikilinks]]` and `![[embeds]]`, tried before `[` starts a Markdown link. */
export function wikiLinkSyntax(): Extension {
  return { text: { [leftBracket]: wikiLink, [exclamationMark]: wikiLink } };
}
