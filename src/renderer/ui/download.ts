/** Saves a blob as a file: a blob link works the same in the desktop window and browser mode. */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  downloadUrl(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Starts the browser's download of a URL (a blob, or a same-origin route that streams the file):
 * the page never holds the content, and the browser shows its own progress.
 */
export function downloadUrl(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
}

/** Saves text as a file. */
export function downloadText(fileName: string, mimeType: string, content: string): void {
  downloadBlob(fileName, new Blob([content], { type: mimeType }));
}
