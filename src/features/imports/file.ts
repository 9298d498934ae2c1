/**
 * Reading the chosen file in the browser (docs/decisions/028-csv-import.md): its bytes, their
 * SHA-256 (a resume proves the same file by it), the encoding (detected, or the user's), the
 * separator (guessed by Papa Parse, or the user's), the header, the first rows and the row count.
 * The Worker never sees the file, only its rows.
 */
import { IMPORT_MAX_COLUMNS, IMPORT_MAX_FILE_BYTES } from "@core/import/batch";
import { decodeBytes, detectEncoding } from "@core/import/encoding";
import type { ImportEncoding } from "@core/import/fields";
import { detectSource, firstRowLooksLikeData, type ImportSource } from "@core/import/mapping";
import { type CsvShape, countRows, type ImportDelimiter, readShape } from "@core/import/read";
import { fileSize, sha256Hex } from "./logic";

export interface LoadedFile {
  name: string;
  size: number;
  bytes: Uint8Array;
  hash: string;
  detectedEncoding: ImportEncoding;
  encoding: ImportEncoding;
  text: string;
  detectedDelimiter: ImportDelimiter;
  delimiter: ImportDelimiter;
  /** The file has no header row (proposed when its first record looks like data). */
  detectedFirstRowIsData: boolean;
  firstRowIsData: boolean;
  shape: CsvShape;
  /** Data records: after the header, if the file has one. */
  totalRows: number;
  source: { id: ImportSource; label: string } | null;
}

export const DELIMITER_LABELS: Readonly<Record<ImportDelimiter, string>> = {
  ",": "Comma ( , )",
  ";": "Semicolon ( ; )",
  "\t": "Tab",
  "|": "Vertical bar ( | )",
};

/** A refusal of the file itself, said to the user as it is. */
export class FileProblem extends Error {}

/** Lets the page paint "Reading…" before a long synchronous parse. */
const nextFrame = () => new Promise<void>((r) => setTimeout(r, 0));

function shapeOf(text: string, o: { delimiter?: ImportDelimiter; firstRowIsData?: boolean } = {}) {
  const shape = readShape(text, o);
  if (!shape.headers.some((h) => h.trim()))
    throw new FileProblem("The file has no header row: its first line should name the columns.");
  if (shape.headers.length > IMPORT_MAX_COLUMNS)
    throw new FileProblem(
      `The file has ${shape.headers.length} columns; an import reads at most ${IMPORT_MAX_COLUMNS}.`,
    );
  const totalRows = countRows(text, shape.delimiter, o.firstRowIsData);
  if (totalRows === 0) throw new FileProblem("The file has a header row but no rows after it.");
  return { shape, totalRows };
}

/** Read as its first record says: a header, or data when it looks like a row (firstRowLooksLikeData). */
function guessedShape(text: string) {
  const asHeader = readShape(text, { sampleRows: 0 });
  const firstRowIsData = firstRowLooksLikeData(asHeader.headers);
  return { firstRowIsData, ...shapeOf(text, { firstRowIsData }) };
}

export async function loadFile(file: File): Promise<LoadedFile> {
  if (file.size === 0) throw new FileProblem("The file is empty.");
  if (file.size > IMPORT_MAX_FILE_BYTES)
    throw new FileProblem(
      `The file is ${fileSize(file.size)}; an import reads files up to ${fileSize(IMPORT_MAX_FILE_BYTES)}. Split it into smaller files.`,
    );
  const bytes = new Uint8Array(await file.arrayBuffer());
  const hash = await sha256Hex(bytes);
  await nextFrame();
  const encoding = detectEncoding(bytes);
  const text = decodeBytes(bytes, encoding);
  const { shape, totalRows, firstRowIsData } = guessedShape(text);
  return {
    name: file.name,
    size: file.size,
    bytes,
    hash,
    detectedEncoding: encoding,
    encoding,
    text,
    detectedDelimiter: shape.delimiter,
    delimiter: shape.delimiter,
    detectedFirstRowIsData: firstRowIsData,
    firstRowIsData,
    shape,
    totalRows,
    source: detectSource(shape.headers),
  };
}

/**
 * The same bytes read again in another encoding (separator and header row guessed afresh), with
 * another separator, or with the first row as data or as the header.
 */
export async function rereadFile(
  f: LoadedFile,
  change: { encoding: ImportEncoding } | { delimiter: ImportDelimiter } | { firstRowIsData: boolean },
): Promise<LoadedFile> {
  await nextFrame();
  if ("encoding" in change) {
    const text = decodeBytes(f.bytes, change.encoding);
    const { shape, totalRows, firstRowIsData } = guessedShape(text);
    return {
      ...f,
      encoding: change.encoding,
      text,
      detectedDelimiter: shape.delimiter,
      delimiter: shape.delimiter,
      detectedFirstRowIsData: firstRowIsData,
      firstRowIsData,
      shape,
      totalRows,
      source: detectSource(shape.headers),
    };
  }
  const next = { delimiter: f.delimiter, firstRowIsData: f.firstRowIsData, ...change };
  const { shape, totalRows } = shapeOf(f.text, next);
  return { ...f, ...next, shape, totalRows, source: detectSource(shape.headers) };
}
