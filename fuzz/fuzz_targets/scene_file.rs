//! libFuzzer target `scene_file`: the check of `impact_fuzz::scene_file`, aborting on a defect.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let verdict = impact_fuzz::scene_file::check(data);
    if verdict.is_defect() {
        panic!("{:?}", verdict.fault);
    }
});
