//! Every dataset equals itself after a round trip through every peer (and,
//! once wired, every one of our handles) before anything is timed.

use bench::harness::Op;

#[test]
fn every_dataset_round_trips_through_every_implementation() {
    let reg = bench::peers::registry(None);
    for f in &reg.failures {
        eprintln!("{}/{}: {}", f.dataset, f.implementation, f.message);
    }
    assert!(
        reg.failures.is_empty(),
        "{} round-trip failures",
        reg.failures.len()
    );
    // Every dataset is covered by at least one implementation.
    for ds in bench::peers::DATASETS {
        assert!(
            reg.cases.iter().any(|c| c.dataset == *ds),
            "dataset {ds} has no case"
        );
    }
    // Each typed case can be run (the closures themselves decode/encode).
    let mut reg = reg;
    for c in reg
        .cases
        .iter_mut()
        .filter(|c| c.dataset.starts_with("fxcbor"))
    {
        (c.run)();
    }
    assert!(reg.cases.iter().any(|c| c.op == Op::DecodeBorrowed));
}

#[test]
fn datasets_have_the_expected_sizes() {
    use bench::datasets::{log, mesh, minecraft, mk48, polyglot};
    assert_eq!(log::generate().logs.len(), log::LOGS);
    assert_eq!(mesh::generate().triangles.len(), mesh::TRIANGLES);
    assert_eq!(minecraft::generate().players.len(), minecraft::PLAYERS);
    assert_eq!(mk48::generate().updates.len(), mk48::UPDATES);
    assert_eq!(polyglot::generate().messages.len(), polyglot::MESSAGES);
    // TestStruc is about 10 KB in MessagePack.
    let t = bench::datasets::test_struc::generate();
    let n = rmp_serde::to_vec_named(&t).unwrap().len();
    assert!((5_000..20_000).contains(&n), "TestStruc is {n} bytes");
}

#[test]
fn generators_are_deterministic() {
    assert_eq!(
        bench::datasets::mk48::generate(),
        bench::datasets::mk48::generate()
    );
    assert_eq!(
        bench::datasets::test_struc::generate(),
        bench::datasets::test_struc::generate()
    );
}

#[test]
fn the_allocator_counts() {
    let before = bench::alloc::snapshot();
    let v = std::hint::black_box(vec![0u8; 4096]);
    let d = bench::alloc::snapshot().since(before);
    drop(v);
    assert!(d.allocations >= 1 && d.bytes >= 4096);
}
