/** Saves a blob as a file: a blob link works the same in the desktop window and browser mode. */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves text as a file. */
export function downloadText(fileName: string, mimeType: string, content: string): void {
  downloadBlob(fileName, new Blob([content], { type: mimeType }));
}
