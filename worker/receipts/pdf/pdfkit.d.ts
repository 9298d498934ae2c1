/**
 * The parts of pdfkit 0.20 (browser build) and fontkit 2 that worker/receipts/pdf uses: neither
 * package ships types, and @types/pdfkit describes older releases (no `pdfkit/output`, no parsed
 * fontkit fonts in registerFont).
 */
declare module "fontkit" {
  /** A parsed font; pdfkit 0.20 accepts it in registerFont, so a font is parsed once per isolate. */
  export interface Font {
    readonly postscriptName: string;
    readonly unitsPerEm: number;
    hasGlyphForCodePoint(codePoint: number): boolean;
    layout(text: string): unknown;
  }
  export function create(buffer: Uint8Array, postscriptName?: string): Font;
}

declare module "pdfkit" {
  import type { Font } from "fontkit";

  export interface TextOptions {
    lineBreak?: boolean;
    baseline?: "alphabetic" | "top" | "middle" | "bottom" | number;
    characterSpacing?: number;
    fill?: boolean;
    stroke?: boolean;
    features?: string[];
  }

  export interface ImageOptions {
    width?: number;
    height?: number;
    fit?: [number, number];
    align?: "left" | "center" | "right";
    valign?: "top" | "center" | "bottom";
  }

  export interface OpenedImage {
    readonly width: number;
    readonly height: number;
  }

  export interface DocumentOptions {
    size?: [number, number] | string;
    margin?: number;
    autoFirstPage?: boolean;
    bufferPages?: boolean;
    compress?: boolean;
    /** false: no default font (the standard 14 are not registered in 0.20's browser build). */
    font?: string | false;
    pdfVersion?: "1.3" | "1.4" | "1.5" | "1.6" | "1.7";
    lang?: string;
    displayTitle?: boolean;
    info?: {
      Title?: string;
      Author?: string;
      Subject?: string;
      Creator?: string;
      Producer?: string;
      CreationDate?: Date;
    };
  }

  type Color = string | [number, number, number];

  export default class PDFDocument {
    constructor(options?: DocumentOptions);
    addPage(options?: DocumentOptions): this;
    registerFont(name: string, src: Font | Uint8Array): this;
    font(name: string): this;
    fontSize(size: number): this;
    fillColor(color: Color, opacity?: number): this;
    strokeColor(color: Color, opacity?: number): this;
    fillOpacity(opacity: number): this;
    lineWidth(width: number): this;
    moveTo(x: number, y: number): this;
    lineTo(x: number, y: number): this;
    rect(x: number, y: number, w: number, h: number): this;
    roundedRect(x: number, y: number, w: number, h: number, r: number): this;
    fill(color?: Color): this;
    stroke(color?: Color): this;
    save(): this;
    restore(): this;
    rotate(angle: number, options?: { origin?: [number, number] }): this;
    text(text: string, x: number, y: number, options?: TextOptions): this;
    widthOfString(text: string, options?: TextOptions): number;
    openImage(src: Uint8Array): OpenedImage;
    image(src: Uint8Array | OpenedImage, x: number, y: number, options?: ImageOptions): this;
    bufferedPageRange(): { start: number; count: number };
    switchToPage(n: number): unknown;
    end(): void;
  }
}

declare module "pdfkit/output" {
  import type PDFDocument from "pdfkit";
  /** Collects the document's bytes; resolves after `doc.end()`. */
  export function toBytes(doc: PDFDocument): Promise<Uint8Array>;
}
