/**
 * Approximate on-demand list prices in US dollars per million input / output tokens (Bedrock,
 * us-east-1, 2025). Only to say roughly what an answer cost; an unknown model shows no price
 * rather than a guess. Matched on the model id without its region prefix ("us.", "eu.", ...).
 */
const PRICES: [RegExp, number, number][] = [
  [/^anthropic\.claude-(sonnet-4|3-7-sonnet|3-5-sonnet)/, 3, 15],
  [/^anthropic\.claude-opus-4/, 15, 75],
  [/^anthropic\.claude-3-5-haiku/, 0.8, 4],
  [/^anthropic\.claude-3-haiku/, 0.25, 1.25],
  [/^amazon\.nova-pro/, 0.8, 3.2],
  [/^amazon\.nova-lite/, 0.06, 0.24],
  [/^amazon\.nova-micro/, 0.035, 0.14],
];

export function tokenCostUsd(
  modelId: string,
  usage: { inputTokens: number; outputTokens: number },
): number | undefined {
  const id = modelId.replace(/^(us|eu|apac|global)\./, '');
  const price = PRICES.find(([pattern]) => pattern.test(id));
  if (!price) return undefined;
  return (usage.inputTokens * price[1] + usage.outputTokens * price[2]) / 1_000_000;
}
