export function SkeletonRows({ rows = 6, columns = 6 }: { rows?: number; columns?: number }) {
  return (
    <div className="skeleton-rows" aria-busy="true" aria-label="Loading">
      {Array.from({ length: rows }, (_, row) => (
        <div className="skeleton-row" key={row}>
          {Array.from({ length: columns }, (_, column) => (
            <span
              className="skeleton-cell"
              key={column}
              style={{ width: `${40 + ((row * 7 + column * 13) % 50)}%` }}
            />
          ))}
        </div>
      ))}
    </div>
  );
}
