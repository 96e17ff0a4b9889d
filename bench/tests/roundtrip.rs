//! Every dataset equals itself after a round trip through every peer and
//! every one of our handles before anything is timed.

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

/// Our handles, static and run-time path, have an `Encode` and a `Decode`
/// case on every dataset (so none was silently left out), and `log` has
/// their `DecodeBorrowed` cases.
#[test]
fn our_handles_cover_every_dataset() {
    let reg = bench::peers::registry(None);
    let ours = [
        "msgpack",
        "msgpack-toarray",
        "cbor",
        "binc",
        "simple",
        "json",
        "AnyHandle-msgpack",
        "AnyHandle-cbor",
        "AnyHandle-binc",
        "AnyHandle-simple",
        "AnyHandle-json",
    ];
    let has = |ds: &str, imp: &str, op: Op| {
        reg.cases
            .iter()
            .any(|c| c.ours && c.dataset == ds && c.implementation == imp && c.op == op)
    };
    for ds in bench::peers::DATASETS {
        // `Value` datasets: the static handles only (msgpack-toarray writes
        // the same Value as msgpack).
        let dynamic = *ds == "value" || *ds == "fxcbor_dynmap" || ds.ends_with("_value");
        // `twitter_ids`: decoding only (into a struct that skips most of
        // the document), by every handle but the positional one.
        let partial = *ds == "twitter_ids";
        for imp in ours {
            if dynamic && (imp.starts_with("AnyHandle") || imp == "msgpack-toarray") {
                continue;
            }
            if partial {
                if imp != "msgpack-toarray" {
                    assert!(has(ds, imp, Op::Decode), "no CodecSuite/{ds}/{imp}/Decode");
                    assert!(!has(ds, imp, Op::Encode), "CodecSuite/{ds}/{imp}/Encode");
                }
                continue;
            }
            for op in [Op::Encode, Op::Decode] {
                assert!(has(ds, imp, op), "no CodecSuite/{ds}/{imp}/{op}");
            }
        }
    }
    for imp in ours {
        assert!(
            has("log", imp, Op::DecodeBorrowed),
            "no CodecSuite/log/{imp}/DecodeBorrowed"
        );
    }
    let id = reg
        .cases
        .iter()
        .find(|c| c.ours)
        .map(bench::harness::Case::id)
        .unwrap_or_default();
    assert!(id.starts_with("CodecSuite/"), "{id}");
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
    let on = bench::alloc::count_allocations();
    let v = std::hint::black_box(vec![0u8; 4096]);
    drop(on);
    let d = bench::alloc::snapshot().since(before);
    drop(v);
    assert!(d.allocations >= 1 && d.bytes >= 4096);
}
