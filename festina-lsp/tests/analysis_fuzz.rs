//! The editor's analysis never panics, whatever the text: every
//! repository program and seeded mutations of them (the fuzz corpus of
//! `compiler/tests/check_fuzz_smoke.rs`) are parsed, resolved, and
//! asked what is at every hundredth offset.

#[path = "../../compiler/tests/mutations/mod.rs"]
mod mutations;

use festina_lsp::analysis::{resolve, FileData, Files, Unit};
use mutations::{corpus, mutate, Rng};
use std::path::Path;
use std::rc::Rc;

struct NoFiles;

impl Files for NoFiles {
    fn load(&self, _: &Path) -> Option<Rc<FileData>> {
        None
    }
}

#[test]
fn analysis_never_panics_on_mutated_programs() {
    let files = corpus();
    assert!(!files.is_empty());
    let mut rng = Rng(0x15A7_0F1E_D170_0B5E);
    let mut runs = 0;
    for (i, (path, text)) in files.iter().enumerate() {
        let other = &files[(i * 5 + 1) % files.len()].1;
        let mut inputs = vec![text.clone()];
        inputs.extend((0..12).map(|_| mutate(&mut rng, text, other)));
        for input in inputs {
            let result = std::panic::catch_unwind(|| {
                let data = Rc::new(FileData::new(
                    Rc::from(Path::new("/fuzz/f.f")),
                    input.clone(),
                ));
                let unit = Unit::new(data.clone(), &NoFiles);
                let resolved = resolve(&unit, &data);
                for offset in (0..input.len()).step_by(100) {
                    let _ = resolved.at(offset as u32);
                }
            });
            assert!(
                result.is_ok(),
                "the analysis panicked on a mutation of {}:\n---\n{input}\n---",
                path.display()
            );
            runs += 1;
        }
    }
    assert!(runs > 1000);
}
