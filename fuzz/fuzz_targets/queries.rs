//! libFuzzer target `queries`: the check of `impact_fuzz::queries`, aborting on a defect.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let verdict = impact_fuzz::queries::check(data);
    if verdict.is_defect() {
        panic!("{:?}", verdict.fault);
    }
});
