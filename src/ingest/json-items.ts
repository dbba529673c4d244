import { ImportFileError } from './errors.js';

/** One element of the document's review array, parsed, with the line it starts on. */
export interface JsonItem {
  index: number;
  line: number;
  value: unknown;
}

/** The text is not one JSON value: the reason names the line where it breaks. */
export class NotJsonError extends ImportFileError {}

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

const isSpace = (c: number) => c === SPACE || c === LF || c === CR || c === TAB;
const newlines = (s: string, end = s.length) => {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0 && i < end; i = s.indexOf('\n', i + 1)) n++;
  return n;
};
/** JSON.parse's reason without its position, which counts from the start of a piece, not of the file. */
const reasonOf = (err: unknown) => (err as Error).message.replace(/ (in JSON )?at position \d+( \(line \d+ column \d+\))?$/, '');
const positionOf = (err: unknown) => Number(/ at position (\d+)/.exec((err as Error).message)?.[1] ?? -1);

/**
 * Reads a JSON document (its text in pieces that may end anywhere) whose reviews are the document
 * itself (an array) or its top-level "reviews" array, handing each element to `onItem` as soon as it
 * is read. Each element is parsed by JSON.parse on its own text, and what is not an element (the
 * skeleton: brackets, commas, other members; each element stands in it as `0` plus its line breaks)
 * is parsed at the end, so the file is accepted or refused as one JSON.parse of it would be (but for
 * a second "reviews" member, refused rather than taken as the only one), while only one element and
 * the skeleton are held. Returns the parsed skeleton, for the caller to judge the document's shape.
 * Line numbers in errors are the file's.
 */
export async function readJsonItems(pieces: AsyncIterable<string>, onItem: (item: JsonItem) => void): Promise<unknown> {
  const skeleton: string[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let started = false;
  /** The top-level array or object has ended: anything but white space after it is an error, found at once. */
  let closed = false;
  /** The depth the review array's elements sit at, while it is open: 1 for a top-level array, 2 for "reviews". */
  let itemDepth = -1;
  let topIsObject = false;
  // In a top-level object: whether the next string is a member name, the name being read, the last name.
  let expectKey = false;
  let key: string[] | null = null;
  let lastKey = '';
  let reviewsKeys = 0;
  let afterColon = false;
  // The element being read: its first character, its text so far, the line it starts on.
  let item: string[] | null = null;
  let itemFirst = 0;
  let itemLine = 0;
  let index = 0;
  let line = 1;

  const finishItem = () => {
    const text = item!.join('');
    item = null;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      const at = positionOf(err);
      throw new NotJsonError([
        {
          line: itemLine + (at >= 0 ? newlines(text, at) : 0),
          field: '',
          reason: `not valid JSON: ${reasonOf(err)} (item ${index})`,
        },
      ]);
    }
    skeleton.push(`0${'\n'.repeat(newlines(text))}`);
    onItem({ index: index++, line: itemLine, value });
  };

  const scan = (text: string) => {
    /** Start of the stretch of `text` not yet added to the skeleton, the element or the member name. */
    let from = 0;
    const take = (to: number) => {
      if (to > from) (key ?? item ?? skeleton).push(text.slice(from, to));
      from = to;
    };
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === LF) line++;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) {
          inString = false;
          if (key) {
            take(i + 1);
            const quoted = key.join('');
            key = null;
            skeleton.push(quoted);
            lastKey = memberName(quoted);
          } else if (item && itemFirst === QUOTE) {
            take(i + 1);
            finishItem();
          }
        }
        continue;
      }
      // A number, true, false or null ends at the first character that cannot be part of it.
      if (item && itemFirst !== QUOTE && itemFirst !== OPEN_ARRAY && itemFirst !== OPEN_OBJECT) {
        if (isSpace(c) || c === COMMA || c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
          take(i);
          finishItem();
        }
      }
      if (isSpace(c)) continue;
      // Said here, not by the skeleton's parse at the end, so a file of many JSON values (NDJSON named
      // .json) is not held whole as skeleton first.
      if (closed || (depth === 0 && (c === CLOSE_ARRAY || c === CLOSE_OBJECT)))
        throw new NotJsonError([
          {
            line,
            field: '',
            reason: `not valid JSON: ${closed ? 'Unexpected non-whitespace character after JSON' : `Unexpected token '${text[i]}'`}`,
          },
        ]);
      const valueStart = afterColon;
      afterColon = false;
      if (!item && depth === itemDepth && c !== COMMA && c !== CLOSE_ARRAY) {
        take(i);
        item = [];
        itemFirst = c;
        itemLine = line;
      }
      if (c === QUOTE) {
        inString = true;
        if (topIsObject && depth === 1 && expectKey) {
          take(i);
          key = [];
          expectKey = false;
        }
      } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        if (depth === 0 && !started) {
          topIsObject = c === OPEN_OBJECT;
          expectKey = topIsObject;
          if (!topIsObject) itemDepth = 1;
        } else if (topIsObject && depth === 1 && valueStart && c === OPEN_ARRAY && lastKey === 'reviews' && reviewsKeys === 1) {
          itemDepth = 2;
        }
        depth++;
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
        depth--;
        closed = depth === 0;
        if (item && depth === itemDepth) {
          take(i + 1);
          finishItem();
        } else if (depth < itemDepth) itemDepth = -1;
      } else if (topIsObject && depth === 1 && c === COMMA) expectKey = true;
      else if (topIsObject && depth === 1 && c === COLON) {
        afterColon = true;
        if (lastKey === 'reviews') reviewsKeys++;
      }
      started = true;
    }
    take(text.length);
  };
  let failure: unknown;
  for await (const text of pieces) {
    // After an error the rest is only decoded: invalid UTF-8 anywhere is reported first, as in NDJSON.
    if (failure) continue;
    try {
      scan(text);
    } catch (err) {
      failure = err;
    }
  }
  if (failure) throw failure;
  if (item) finishItem();
  let whole: string;
  try {
    whole = skeleton.join('');
  } catch {
    // Longer than a string can be: only a document whose bulk is not its review array.
    throw new ImportFileError([{ field: '', reason: 'the JSON document is too large outside its "reviews" array' }]);
  }
  try {
    const doc = JSON.parse(whole);
    if (reviewsKeys > 1) throw new ImportFileError([{ field: '', reason: 'the document has more than one "reviews" member' }]);
    return doc;
  } catch (err) {
    if (err instanceof ImportFileError) throw err;
    // The skeleton's own text (elements stand as 0 in it) is not the file's: its quote is left out, and
    // the line is given only when the parser says where.
    const at = positionOf(err);
    const reason = `not valid JSON: ${reasonOf(err).replace(/, ".*" is not valid JSON$/s, '')}`;
    throw new NotJsonError([at >= 0 ? { line: 1 + newlines(whole, at), field: '', reason } : { field: '', reason }]);
  }
}

/** A member name as JSON.parse reads it; a broken one is left for the skeleton's parse to report. */
function memberName(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return '';
  }
}
