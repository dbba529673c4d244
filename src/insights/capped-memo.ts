// A function of a word, remembered per word. The words of a stream of reviews do not end, so the memory is
// cleared whenever it reaches its cap rather than kept in order: a word seen again is simply computed again.

export function cappedMemo<V>(compute: (key: string) => V, cap: number): (key: string) => V {
  const memo = new Map<string, V>();
  return (key) => {
    if (memo.has(key)) return memo.get(key) as V;
    const value = compute(key);
    if (memo.size >= cap) memo.clear();
    memo.set(key, value);
    return value;
  };
}
