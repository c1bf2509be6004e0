// The engine's Web Worker. It loads cb2026 (WebAssembly, built by scripts/web-build into pkg/)
// and runs the UCI lines the page sends, one at a time. A search runs to its end inside
// `command`, so the worker is busy meanwhile; the page is not, because this is a worker.
//
// Messages in:  { id, line, stream }  one UCI line; with `stream`, output is sent as it comes.
// Messages out: { type: 'ready', techniques, stages, simd } the engine is loaded (simd: the
//                                                  network's code path, SIMD128 or scalar)
//               { type: 'failed', error }          it could not be loaded
//               { type: 'output', id, text }       a piece of output, while a line runs
//               { type: 'done', id, output, error } the line's whole output (error: it crashed)

import init, { Engine, simd, stages, techniques } from './pkg/web.js';

let engine = null;
let broken = null;

const loading = init()
  .then(() => {
    engine = new Engine();
    postMessage({ type: 'ready', techniques: techniques(), stages: stages(), simd: simd() });
  })
  .catch((e) => {
    broken = `the engine could not be loaded (${e}); build it with scripts/web-build`;
    postMessage({ type: 'failed', error: broken });
  });

// Lines that arrive while the module loads wait for it, in the order they came.
onmessage = async (event) => {
  await loading;
  const { id, line, stream } = event.data;
  if (broken) {
    postMessage({ type: 'done', id, output: '', error: broken });
    return;
  }
  try {
    const onOutput = stream ? (text) => postMessage({ type: 'output', id, text }) : undefined;
    const output = engine.command(line, onOutput);
    postMessage({ type: 'done', id, output });
  } catch (e) {
    // A panic in the engine is a trap here: the module cannot be trusted after it.
    broken = `the engine stopped with an error on '${line}': ${e}`;
    postMessage({ type: 'done', id, output: '', error: broken });
  }
};
