//! cb2026 in the browser: the UCI session compiled to WebAssembly, for a Web Worker.
//!
//! The page's worker (`book/src/play/worker.js`) makes one [`Engine`] and sends it UCI lines one
//! at a time. There are no threads here, so each line runs to its end before `command` returns:
//! a search needs a limit, and the worker is busy until it is done, which is why it runs in a
//! worker and not on the page. The protocol is the binary's own: the same [`uci::Session`] reads
//! the lines, only its output goes to the page instead of stdout.

use engine::stages::Stage;
use engine::techniques::TECHNIQUES;
use wasm_bindgen::prelude::*;

/// One engine: a game's position, the options and switches, the hash table.
#[wasm_bindgen]
pub struct Engine {
    session: uci::Session,
}

#[wasm_bindgen]
impl Engine {
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)] // JavaScript calls `new Engine()`, never `default`.
    pub fn new() -> Engine {
        Engine {
            session: uci::Session::synchronous(false),
        }
    }

    /// Runs one UCI line (`position ...`, `go depth 8`, `set lmr off`, `stats`, `moves`,
    /// `tree depth 4 print svg`, ...) and returns everything it wrote. `on_output`, if given, is
    /// called with each piece of output as it is written, so the page sees a search's `info`
    /// lines while it runs.
    pub fn command(&mut self, line: &str, on_output: Option<js_sys::Function>) -> String {
        let session = &mut self.session;
        uci::output::capture(
            || {
                // `quit` has nothing to end here: the worker lives as long as its page.
                session.execute(line);
            },
            move |piece| {
                if let Some(f) = &on_output {
                    // An exception thrown by the page's callback is the page's to report; the
                    // output is still returned whole.
                    let _ = f.call1(&JsValue::NULL, &JsValue::from_str(piece));
                }
            },
        )
    }
}

/// The techniques that `set NAME on|off` switches, one per line: name, default (`true` or
/// `false`), book chapter and description, separated by tabs; for the page's check boxes.
#[wasm_bindgen]
pub fn techniques() -> String {
    TECHNIQUES
        .iter()
        .map(|t| format!("{}\t{}\t{}\t{}\n", t.name, t.default, t.chapter, t.doc))
        .collect()
}

/// The network's code path in this module: `SIMD128` where it was built with WebAssembly's
/// vector instructions (scripts/web-build does), `scalar` without. The browser test reads it.
#[wasm_bindgen]
pub fn simd() -> String {
    engine::eval::nnue::Simd::detect().name().to_string()
}

/// The values of the `Stage` option, the full engine first, one per line: the value (`full` or a
/// stage number), its title and the techniques it switches on (comma-separated), separated by
/// tabs; for the page's stage selector, which sets the check boxes to match.
#[wasm_bindgen]
pub fn stages() -> String {
    Stage::choices()
        .iter()
        .map(|&stage| {
            let switches = stage.techniques();
            let on: Vec<&str> = TECHNIQUES
                .iter()
                .filter(|t| switches.get(t.name) == Some(true))
                .map(|t| t.name)
                .collect();
            format!("{stage}\t{}\t{}\n", stage.title(), on.join(","))
        })
        .collect()
}
