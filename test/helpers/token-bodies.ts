/**
 * The body of `POST /tokens` for a dpnm token on the local chain (31337): what a test sends
 * when it only needs "a token of this user" (projects link one, agents may). Files about
 * tokens themselves use their own bodies (tokens-fixtures.ts).
 */
export function dpnmTokenBody(name: string, ticker: string) {
  return {
    template: 'dpnm',
    name,
    ticker,
    chainId: 31337,
    params: {
      initialPrice: '0.5',
      dailyLimitFloor: '10',
      incomeLimitMultiplier: 2,
      treeActivationCost: '25',
    },
  };
}
