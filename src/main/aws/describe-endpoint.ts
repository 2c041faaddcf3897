/** "DynamoDB Local at http://127.0.0.1:8000", "LocalStack at …", or the endpoint itself. */
export function describeEndpoint(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return `the endpoint ${endpoint}`;
  }
  const isLoopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  // 4566 is LocalStack's edge port; any other local endpoint is most likely DynamoDB Local.
  if (isLoopback && url.port === '4566') return `LocalStack at ${endpoint}`;
  if (isLoopback) return `DynamoDB Local at ${endpoint}`;
  return `the endpoint ${endpoint}`;
}
