// A V8 heap snapshot summarised: bytes by constructor (self size) and the dominator tree's large
// subtrees (retained size: what would be freed with the object), so "who holds the memory" reads as a
// short list. Used by bench/scale-memory-process.bench.ts; also on its own:
//   node --max-old-space-size=8192 --import tsx bench/heap-summary.ts FILE.heapsnapshot
import { readFileSync } from 'node:fs';
import { fmt } from './lib.js';

interface Snapshot {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] };
    node_count: number;
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const mb = (bytes: number) => fmt(bytes / 2 ** 20, 1);

export function summariseHeap(file: string, opts: { minMb?: number; depth?: number; top?: number } = {}): string {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const { node_fields, node_types, edge_fields, edge_types } = s.snapshot.meta;
  const NF = node_fields.length;
  const EF = edge_fields.length;
  const nType = node_fields.indexOf('type');
  const nName = node_fields.indexOf('name');
  const nSize = node_fields.indexOf('self_size');
  const nEdges = node_fields.indexOf('edge_count');
  const eType = edge_fields.indexOf('type');
  const eName = edge_fields.indexOf('name_or_index');
  const eTo = edge_fields.indexOf('to_node');
  const types = node_types[0];
  const etypes = edge_types[0];
  const WEAK = etypes.indexOf('weak');
  const n = s.nodes.length / NF;
  const firstEdge = new Int32Array(n + 1);
  for (let i = 0, e = 0; i < n; i++) {
    firstEdge[i] = e;
    e += s.nodes[i * NF + nEdges] * EF;
    firstEdge[i + 1] = e;
  }
  const label = (i: number) => {
    const t = types[s.nodes[i * NF + nType]];
    const name = s.strings[s.nodes[i * NF + nName]];
    if (t === 'object') return name;
    if (t === 'closure') return `${name}()`;
    // Kinds whose names say what they are (array buffers' memory is native "system / JSArrayBufferData").
    if (t === 'native' || t === 'hidden' || t === 'array' || t === 'synthetic') return `(${t}) ${name.slice(0, 50)}`;
    return `(${t})`;
  };
  const edgeLabel = (e: number) => {
    const t = etypes[s.edges[e + eType]];
    const v = s.edges[e + eName];
    return t === 'element' || t === 'hidden' ? `[${v}]` : String(s.strings[v]);
  };

  // Depth-first postorder from the root (node 0), without weak edges; the tree edge that reached each node.
  const post = new Int32Array(n).fill(-1);
  const order = new Int32Array(n);
  const reachedBy = new Int32Array(n).fill(-1);
  const visited = new Uint8Array(n);
  const stack = new Int32Array(n);
  const cursor = new Int32Array(n);
  let count = 0;
  let sp = 0;
  stack[sp++] = 0;
  visited[0] = 1;
  cursor[0] = firstEdge[0];
  while (sp > 0) {
    const v = stack[sp - 1];
    let pushed = false;
    for (let e = cursor[v]; e < firstEdge[v + 1]; e += EF) {
      cursor[v] = e + EF;
      if (s.edges[e + eType] === WEAK) continue;
      const w = s.edges[e + eTo] / NF;
      if (visited[w]) continue;
      visited[w] = 1;
      reachedBy[w] = e;
      cursor[w] = firstEdge[w];
      stack[sp++] = w;
      pushed = true;
      break;
    }
    if (!pushed) {
      sp--;
      post[v] = count;
      order[count++] = v;
    }
  }
  // Predecessors (reachable ones), as compressed rows.
  const predCount = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) {
    if (post[v] < 0) continue;
    for (let e = firstEdge[v]; e < firstEdge[v + 1]; e += EF) if (s.edges[e + eType] !== WEAK) predCount[s.edges[e + eTo] / NF + 1]++;
  }
  for (let i = 0; i < n; i++) predCount[i + 1] += predCount[i];
  const preds = new Int32Array(predCount[n]);
  const fill = predCount.slice(0, n);
  for (let v = 0; v < n; v++) {
    if (post[v] < 0) continue;
    for (let e = firstEdge[v]; e < firstEdge[v + 1]; e += EF) if (s.edges[e + eType] !== WEAK) preds[fill[s.edges[e + eTo] / NF]++] = v;
  }
  // Immediate dominators (Cooper, Harvey and Kennedy), on postorder numbers.
  const idom = new Int32Array(count).fill(-1);
  const root = post[0];
  idom[root] = root;
  for (let changed = true; changed; ) {
    changed = false;
    for (let k = count - 2; k >= 0; k--) {
      const v = order[k];
      let best = -1;
      for (let p = predCount[v]; p < predCount[v + 1]; p++) {
        let a = post[preds[p]];
        if (a < 0 || idom[a] < 0) continue;
        if (best < 0) {
          best = a;
          continue;
        }
        let b = best;
        while (a !== b) {
          while (a < b) a = idom[a];
          while (b < a) b = idom[b];
        }
        best = a;
      }
      if (best >= 0 && idom[k] !== best) {
        idom[k] = best;
        changed = true;
      }
    }
  }
  const retained = new Float64Array(count);
  for (let k = 0; k < count; k++) retained[k] += s.nodes[order[k] * NF + nSize];
  for (let k = 0; k < count - 1; k++) if (idom[k] >= 0 && idom[k] !== k) retained[idom[k]] += retained[k];

  const lines: string[] = [];
  let total = 0;
  const byLabel = new Map<string, { bytes: number; count: number }>();
  for (let i = 0; i < n; i++) {
    const size = s.nodes[i * NF + nSize];
    total += size;
    const l = label(i);
    const c = byLabel.get(l) ?? { bytes: 0, count: 0 };
    c.bytes += size;
    c.count++;
    byLabel.set(l, c);
  }
  lines.push(`heap snapshot: ${fmt(n)} objects, ${mb(total)} MB (self sizes; array buffers' memory included as native nodes)`);
  lines.push('', '| constructor or kind | objects | MB (self) |', '| --- | --- | --- |');
  for (const [l, c] of [...byLabel].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, opts.top ?? 25))
    lines.push(`| ${l.replaceAll('|', '\\|').slice(0, 80)} | ${fmt(c.count)} | ${mb(c.bytes)} |`);

  // The dominator tree's subtrees of at least minMb, to `depth` levels.
  const children = new Map<number, number[]>();
  for (let k = 0; k < count; k++) {
    if (k === root || idom[k] < 0) continue;
    if (retained[k] < (opts.minMb ?? 2) * 2 ** 20) continue;
    const list = children.get(idom[k]) ?? [];
    list.push(k);
    children.set(idom[k], list);
  }
  lines.push('', `dominator tree (retained MB, subtrees of at least ${opts.minMb ?? 2} MB):`);
  const walk = (k: number, depth: number, indent: string) => {
    const list = (children.get(k) ?? []).sort((a, b) => retained[b] - retained[a]);
    for (const c of list) {
      const v = order[c];
      const via = reachedBy[v] >= 0 ? edgeLabel(reachedBy[v]) : '';
      lines.push(`${indent}${mb(retained[c])} ${label(v).slice(0, 60)}${via ? ` (via .${via.slice(0, 40)})` : ''}`);
      if (depth > 1) walk(c, depth - 1, `${indent}  `);
    }
  };
  walk(root, opts.depth ?? 8, '  ');
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(summariseHeap(process.argv[2], { minMb: Number(process.argv[3] ?? 2) }));
