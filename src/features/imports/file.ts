/**
 * Reading the chosen file in the browser (docs/decisions/028-csv-import.md): its bytes, their
 * SHA-256 (a resume proves the same file by it), the encoding (detected, or the user's), the
 * separator (guessed by Papa Parse, or the user's), the header, the first rows and the row count.
 * The Worker never sees the file, only its rows.
 */
import { IMPORT_MAX_COLUMNS, IMPORT_MAX_FILE_BYTES } from "@core/import/batch";
import { decodeBytes, detectEncoding } from "@core/import/encoding";
import type { ImportEncoding } from "@core/import/fields";
import { detectSource, type ImportSource } from "@core/import/mapping";
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
  shape: CsvShape;
  /** Records after the header. */
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

function shapeOf(text: string, delimiter?: ImportDelimiter) {
  const shape = readShape(text, delimiter ? { delimiter } : {});
  if (!shape.headers.some((h) => h.trim()))
    throw new FileProblem("The file has no header row: its first line should name the columns.");
  if (shape.headers.length > IMPORT_MAX_COLUMNS)
    throw new FileProblem(
      `The file has ${shape.headers.length} columns; an import reads at most ${IMPORT_MAX_COLUMNS}.`,
    );
  const totalRows = countRows(text, shape.delimiter);
  if (totalRows === 0) throw new FileProblem("The file has a header row but no rows after it.");
  return { shape, totalRows };
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
  const { shape, totalRows } = shapeOf(text);
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
    shape,
    totalRows,
    source: detectSource(shape.headers),
  };
}

/** The same bytes read again in another encoding (the separator guessed afresh) or with another separator. */
export async function rereadFile(
  f: LoadedFile,
  change: { encoding: ImportEncoding } | { delimiter: ImportDelimiter },
): Promise<LoadedFile> {
  await nextFrame();
  if ("encoding" in change) {
    const text = decodeBytes(f.bytes, change.encoding);
    const { shape, totalRows } = shapeOf(text);
    return {
      ...f,
      encoding: change.encoding,
      text,
      detectedDelimiter: shape.delimiter,
      delimiter: shape.delimiter,
      shape,
      totalRows,
      source: detectSource(shape.headers),
    };
  }
  const { shape, totalRows } = shapeOf(f.text, change.delimiter);
  return { ...f, delimiter: change.delimiter, shape, totalRows, source: detectSource(shape.headers) };
}
