import { MEDIA_MAX_BYTES, MEDIA_TYPES } from "@core/media";
import { ImageIcon, Loader2, Trash2, Upload } from "lucide-react";
import * as React from "react";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { safeImageSrc } from "~/lib/format";
import { cn } from "~/lib/utils";

/** The limits POST /api/media enforces (core/media.ts, worker/media/service.ts), checked here first to save the upload. */

function localProblem(file: File): string | null {
  if (!(MEDIA_TYPES as readonly string[]).includes(file.type)) return "Choose a PNG, JPEG or WebP image.";
  if (file.size > MEDIA_MAX_BYTES)
    return `This image is ${(file.size / 1024 / 1024).toFixed(1)} MB; the limit is 1 MB.`;
  if (file.size === 0) return "This file is empty.";
  return null;
}

/**
 * Picks an image, uploads it to /api/media and reports its URL; shows a preview, a remove button,
 * and the reasons a file is refused (type, size, or the server's answer). Inside a plain form it
 * also renders a hidden input `name` carrying the URL, so FormData-based forms need no wiring.
 */
export function ImageUpload({
  label,
  value,
  onChange,
  name,
  description,
  error,
  disabled,
  shape = "wide",
  className,
}: {
  label: string;
  value: string | null | undefined;
  onChange: (url: string | null) => void;
  name?: string;
  description?: string;
  error?: string;
  disabled?: boolean;
  /** `wide` for covers (16:9), `square` for logos. */
  shape?: "wide" | "square";
  className?: string;
}) {
  const id = React.useId();
  const input = React.useRef<HTMLInputElement>(null);
  const [problem, setProblem] = React.useState<string | null>(null);
  const [busy, setBusy] = React.useState(false);
  const shown = problem ?? error;

  async function pick(file: File | undefined) {
    if (!file) return;
    const local = localProblem(file);
    setProblem(local);
    if (local) return;
    setBusy(true);
    try {
      const form = new FormData();
      form.append("file", file);
      const res = await fetch("/api/media", { method: "POST", body: form, credentials: "same-origin" });
      const body = (await res.json().catch(() => ({}))) as { url?: string; message?: string };
      if (!res.ok || !body.url) {
        setProblem(body.message ?? `Upload failed (${res.status})`);
        return;
      }
      onChange(body.url);
    } catch {
      setProblem("Upload failed: check the connection and try again.");
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  }

  return (
    <div className={cn("grid gap-2", className)} data-slot="image-upload">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex flex-wrap items-center gap-3">
        <div
          className={cn(
            "flex shrink-0 items-center justify-center overflow-hidden rounded-md border bg-muted",
            shape === "wide" ? "aspect-video w-40" : "size-20",
          )}
        >
          {safeImageSrc(value) ? (
            <img
              src={safeImageSrc(value) ?? undefined}
              alt={`${label} preview`}
              className="size-full object-cover"
            />
          ) : (
            <ImageIcon className="size-6 text-muted-foreground" aria-hidden />
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <input
            ref={input}
            id={id}
            type="file"
            accept={MEDIA_TYPES.join(",")}
            className="sr-only"
            disabled={disabled || busy}
            aria-invalid={shown ? true : undefined}
            aria-describedby={shown ? `${id}-error` : description ? `${id}-description` : undefined}
            onChange={(e) => pick(e.target.files?.[0])}
          />
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={disabled || busy}
            onClick={() => input.current?.click()}
          >
            {busy ? <Loader2 className="size-4 animate-spin" /> : <Upload className="size-4" />}
            {busy ? "Uploading…" : value ? "Replace" : "Upload"}
          </Button>
          {value ? (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              disabled={disabled || busy}
              onClick={() => {
                setProblem(null);
                onChange(null);
              }}
            >
              <Trash2 className="size-4" /> Remove
            </Button>
          ) : null}
        </div>
      </div>
      {name ? <input type="hidden" name={name} value={value ?? ""} /> : null}
      {description && !shown ? (
        <p id={`${id}-description`} className="text-muted-foreground text-sm">
          {description}
        </p>
      ) : null}
      {shown ? (
        <p id={`${id}-error`} role="alert" className="font-medium text-destructive text-sm">
          {shown}
        </p>
      ) : null}
    </div>
  );
}
