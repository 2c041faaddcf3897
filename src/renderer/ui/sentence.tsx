/**
 * Main's sentences quote commands in backticks (`sudo apt install openjdk-17-jre`); show those
 * as code so they read as something to type, and keep everything else plain text (never HTML).
 */
export function Sentence({ text }: { text: string }) {
  const parts = text.split('`');
  // An odd count of backticks means one is unmatched: show the text as it is.
  if (parts.length % 2 === 0) return <>{text}</>;
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <code key={index} className="inline-code">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}
