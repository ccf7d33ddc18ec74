//! libFuzzer target `world_script`: the check of `impact_fuzz::world_script`, aborting on a defect.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let verdict = impact_fuzz::world_script::check(data);
    if verdict.is_defect() {
        panic!("{:?}", verdict.fault);
    }
});
