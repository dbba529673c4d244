import { CONFIGS, loadTraining, prepare } from './trainer.js';

const v = 'senior_living';
const { sentences } = loadTraining(CONFIGS[v]);
const a = prepare(v, sentences);
const b = prepare(v, sentences);
let diff = 0;
for (let i = 0; i < a.length; i++) {
  const x = JSON.stringify(a[i].category),
    y = JSON.stringify(b[i].category);
  if (x !== y) {
    if (diff < 3) {
      const xs = new Set(a[i].category.names),
        ys = new Set(b[i].category.names);
      console.log(
        i,
        a[i].sentence.id,
        [...xs].filter((n) => !ys.has(n)),
        [...ys].filter((n) => !xs.has(n)),
      );
    }
    diff++;
  }
}
console.log('diff', diff, a.length);
