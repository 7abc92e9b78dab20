//! The routes the build makes (`net/routing.rs`) on fat trees given as scenarios, with and
//! without ECMP.

use crate::net::node::NodeKind;
use crate::net::routing::{bfs, Columns, Routes};
use crate::sim::Sim;

/// A scenario text built (`crate::simulation` without the crate root).
fn sim(text: &str, seed: Option<u64>) -> Sim {
    Sim::build(&crate::scenario::load(text, "fat-tree.toml", &[], seed).unwrap()).unwrap()
}

/// A k = 4 fat tree (E1..E8 edge, A1..A8 aggregation, C1..C4 core, H1..H16) with permutation
/// traffic H(i) → H(i + 8), as python/cnsim/generators.py writes it.
fn fat_tree_text(routing: &str) -> String {
    let mut t = format!("{routing}\n[simulation]\nduration = \"1ms\"\nrecord_interval = \"0s\"\n");
    t += "[[switch]]\nnames = [\"E1..E8\", \"A1..A8\", \"C1..C4\"]\n[[host]]\nnames = \"H1..H16\"\n";
    for e in 0..8 {
        let pod = e / 2;
        t += &format!("[[link]]\nbetween = [\"E{}\", [\"H{}..H{}\", \"A{}..A{}\"]]\n", e + 1, 2 * e + 1, 2 * e + 2, 2 * pod + 1, 2 * pod + 2);
    }
    for a in 0..8 {
        let i = a % 2;
        t += &format!("[[link]]\nbetween = [\"A{}\", \"C{}..C{}\"]\n", a + 1, 2 * i + 1, 2 * i + 2);
    }
    for h in 0..16 {
        t += &format!("[[flow]]\nfrom = \"H{}\"\nto = \"H{}\"\ntraffic = {{ kind = \"cbr\", rate = \"1Mbps\" }}\n", h + 1, (h + 8) % 16 + 1);
    }
    t
}
fn fat_tree(routing: &str) -> Sim {
    sim(&fat_tree_text(routing), None)
}

fn id(s: &Sim, name: &str) -> usize {
    s.nodes.iter().position(|n| n.name == name).unwrap()
}
fn names(s: &Sim, path: &[usize]) -> Vec<String> {
    path.iter().map(|&u| s.nodes[u].name.clone()).collect()
}
fn peer(s: &Sim, p: u32) -> String {
    s.nodes[s.ports[p as usize].peer_node as usize].name.clone()
}

#[test]
fn without_ecmp_one_path_by_name_whatever_the_flow() {
    for routing in ["", "[routing]\necmp = false"] {
        let s = fat_tree(routing);
        let (h1, h9) = (id(&s, "H1"), id(&s, "H9"));
        let path = s.routes.path(&s.ports, h1, h9, 0).unwrap();
        assert_eq!(names(&s, &path), ["H1", "E1", "A1", "C1", "A5", "E5", "H9"]);
        for f in 0..200 {
            assert_eq!(s.routes.path(&s.ports, h1, h9, f).unwrap(), path);
        }
        assert_eq!(s.routes.choices(id(&s, "E1"), h9).len(), 1);
        assert_eq!(s.routes.set_bytes(), 0);
    }
}

#[test]
fn with_ecmp_every_choice_is_equal_cost_stable_and_all_are_used() {
    let s = fat_tree("[routing]\necmp = true");
    let off = fat_tree("");
    let hosts: Vec<usize> = (0..s.nodes.len()).filter(|&u| s.nodes[u].kind == NodeKind::Host).collect();
    for &d in &hosts {
        let dist = bfs(&s.nodes, &s.ports, d);
        for u in (0..s.nodes.len()).filter(|&u| u != d && s.nodes[u].kind.forwards()) {
            let choices = s.routes.choices(u, d);
            // The set is what the tie-break chose among, its choice first.
            assert_eq!(choices.first(), Some(&off.routes.next_port(u, d, 0)));
            let mut used = vec![false; choices.len()];
            for f in 0..256 {
                let p = s.routes.next_port(u, d, f);
                assert_eq!(p, s.routes.next_port(u, d, f), "a flow keeps its port");
                let v = s.ports[p as usize].peer_node as usize;
                assert_eq!(dist[v] + 1, dist[u], "{}: {} is not one hop closer to {}", s.nodes[u].name, peer(&s, p), s.nodes[d].name);
                used[choices.iter().position(|&c| c == p).expect("chosen port in the set")] = true;
            }
            assert!(used.iter().all(|&x| x), "{} towards {}: not every equal-cost port used", s.nodes[u].name, s.nodes[d].name);
        }
    }
    // Cross-pod: two ways up at the edge and at the aggregation, one way down.
    let (e1, a1, c1, h9) = (id(&s, "E1"), id(&s, "A1"), id(&s, "C1"), id(&s, "H9"));
    let up = |u| s.routes.choices(u, h9).iter().map(|&p| peer(&s, p)).collect::<Vec<_>>();
    assert_eq!((up(e1), up(a1), up(c1)), (vec!["A1".to_string(), "A2".into()], vec!["C1".to_string(), "C2".into()], vec!["A5".to_string()]));
    // The table keeps one entry per (node, column); the sets are few (identical ones shared).
    assert_eq!(s.routes.memory() - s.routes.set_bytes(), off.routes.memory());
    assert!(s.routes.set_bytes() < off.routes.memory() / 2, "{} set bytes", s.routes.set_bytes());
}

#[test]
fn with_ecmp_the_path_is_the_frames_and_spreads_over_the_core() {
    let s = fat_tree("[routing]\necmp = true");
    let (h1, h9) = (id(&s, "H1"), id(&s, "H9"));
    let mut cores = std::collections::BTreeSet::new();
    for f in 0..64 {
        let path = s.routes.path(&s.ports, h1, h9, f).unwrap();
        assert_eq!(path.len(), 7, "a shortest path");
        // Each hop is the port next_port gives that flow.
        for w in path.windows(2) {
            assert_eq!(s.ports[s.routes.next_port(w[0], h9, f) as usize].peer_node as usize, w[1]);
        }
        cores.insert(s.nodes[path[3]].name.clone());
    }
    assert_eq!(cores.len(), 4, "{cores:?}");
}

/// A k-ary fat tree as python/cnsim/generators.py writes it, host i sending to host i + k³/8.
fn fat_tree_k(k: usize, routing: &str) -> Sim {
    sim(&fat_tree_k_text(k, routing), None)
}

/// The text of [`fat_tree_k`].
pub(super) fn fat_tree_k_text(k: usize, routing: &str) -> String {
    let (half, hosts) = (k / 2, k * k * k / 4);
    let mut t = format!("{routing}\n[simulation]\nduration = \"1ms\"\nrecord_interval = \"0s\"\n");
    t += &format!("[[switch]]\nnames = [\"E1..E{0}\", \"A1..A{0}\", \"C1..C{1}\"]\n[[host]]\nnames = \"H1..H{hosts}\"\n", k * half, half * half);
    for e in 0..k * half {
        let pod = e / half;
        t += &format!("[[link]]\nbetween = [\"E{}\", [\"H{}..H{}\", \"A{}..A{}\"]]\n", e + 1, e * half + 1, (e + 1) * half, pod * half + 1, (pod + 1) * half);
    }
    for a in 0..k * half {
        let i = a % half;
        t += &format!("[[link]]\nbetween = [\"A{}\", \"C{}..C{}\"]\n", a + 1, i * half + 1, (i + 1) * half);
    }
    for h in 0..hosts {
        t += &format!("[[flow]]\nfrom = \"H{}\"\nto = \"H{}\"\ntraffic = {{ kind = \"cbr\", rate = \"1Mbps\" }}\n", h + 1, (h + hosts / 2) % hosts + 1);
    }
    t
}

#[test]
fn a_fat_trees_table_is_its_switches_by_its_pods_plus_a_few_entries_per_edge_switch() {
    // Rows: the switches, 5k²/4 (k²/2 edge, k²/2 aggregation, k²/4 core); a host on one link
    // has none. Class columns: one per pod, k (its k/2 edge switches are twins). Exceptions: per
    // edge switch (k²/2 of them), one entry per aggregation switch of its pod and per edge switch
    // of its pod, k. In all 5k³/4 + k³/2 = 7k³/4 = 7 × hosts:
    //   k = 8:  80 × 8 + 32 × 8 = 896;   k = 16: 320 × 16 + 128 × 16 = 7 168,
    // 8× the entries for 8× the hosts. A column per edge switch would be 80 × 32 = 2 560 and
    // 320 × 128 = 40 960 (k⁴).
    for routing in ["", "[routing]\necmp = true"] {
        for (k, entries) in [(8, 896), (16, 7_168)] {
            let s = fat_tree_k(k, routing);
            assert_eq!(s.routes.entries(), entries, "k = {k}, {routing:?}");
        }
    }
}

#[test]
fn a_fat_trees_routing_build_grows_as_its_hosts() {
    // The build's work (links read, entries written, ports read to make an entry: `Routes::work`)
    // and its table's entries at three sizes, each 8× the hosts of the one before. Linear in the
    // hosts gives 8× the work; a search per pod (k searches of the k³ links, hosts^4/3) would give
    // 16×; the bound is their geometric mean, so either side fails the other's test.
    let bound = (8.0f64 * 16.0).sqrt();
    let work: Vec<(usize, usize, usize)> = [8, 16, 32]
        .iter()
        .map(|&k| {
            let s = fat_tree_k(k, "[routing]\necmp = true");
            let hosts = s.nodes.iter().filter(|n| n.kind == NodeKind::Host).count();
            (hosts, s.routes.entries(), s.routes.work())
        })
        .collect();
    for w in work.windows(2) {
        let ((h0, e0, w0), (h1, e1, w1)) = (w[0], w[1]);
        assert_eq!(h1, 8 * h0);
        assert_eq!(e1 * h0, e0 * h1, "entries {e0} then {e1} for hosts {h0} then {h1}");
        let ratio = w1 as f64 / w0 as f64;
        assert!(ratio < bound, "work {w0} then {w1} (×{ratio:.2}) for 8× the hosts");
    }
}

#[test]
fn a_search_per_pod_would_fail_the_growth_bound() {
    // The bound above separates the two: the same fat trees' work with a search per class
    // (what any fabric that is not a fat tree gets) grows faster than it allows.
    let bound = (8.0f64 * 16.0).sqrt();
    let work: Vec<usize> = [8, 16]
        .iter()
        .map(|&k| {
            let s = fat_tree_k(k, "");
            let hosts: Vec<usize> = (0..s.nodes.len()).filter(|&u| s.nodes[u].kind == NodeKind::Host).collect();
            Routes::build_searched(&s.nodes, &s.ports, &hosts, Some(7)).work()
        })
        .collect();
    assert!(work[1] as f64 / work[0] as f64 > bound, "{work:?}");
}

#[test]
fn the_ecmp_salt_comes_from_the_seed() {
    // Another seed, another spread (over many flows at least one differs).
    let text = fat_tree_text("[routing]\necmp = true");
    let a = sim(&text, Some(1));
    let b = sim(&text, Some(2));
    let (e1, h9) = (id(&a, "E1"), id(&a, "H9"));
    assert!((0..64).any(|f| a.routes.next_port(e1, h9, f) != b.routes.next_port(e1, h9, f)));
    let c = sim(&text, Some(1));
    assert!((0..64).all(|f| a.routes.next_port(e1, h9, f) == c.routes.next_port(e1, h9, f)));
}

/// Every node's equal-cost ports to every host (and the next port of a few flows) are the same
/// whether twin targets share one class column and search (with their exceptions) or each has its
/// own column and search.
fn same_routes_as_a_search_per_column(s: &Sim) {
    let hosts: Vec<usize> = (0..s.nodes.len()).filter(|&u| s.nodes[u].kind == NodeKind::Host).collect();
    for ecmp in [None, Some(7)] {
        let shared = Routes::build(&s.nodes, &s.ports, &hosts, ecmp);
        let searched = Routes::build_with(&s.nodes, &s.ports, &hosts, ecmp, Columns::PerTarget);
        // Fewer entries (a class column and exceptions for the twins' columns), the same port sets.
        assert!(shared.entries() <= searched.entries());
        assert_eq!(shared.set_bytes(), searched.set_bytes());
        for u in 0..s.nodes.len() {
            for &d in &hosts {
                assert_eq!(shared.choices(u, d), searched.choices(u, d), "{} to {}", s.nodes[u].name, s.nodes[d].name);
                for f in 0..4 {
                    assert_eq!(shared.next_port(u, d, f), searched.next_port(u, d, f));
                }
            }
        }
    }
}

#[test]
fn a_fat_trees_routes_from_its_tiers_are_a_search_per_targets() {
    for k in [4, 6, 8] {
        same_routes_as_a_search_per_column(&fat_tree_k(k, ""));
    }
}

#[test]
fn twins_in_an_irregular_fabric_share_a_search_with_the_same_routes() {
    // S1..S3 are twins (both A1 and A2, nothing else in the fabric); S4 is not (A2 and X3); M is a
    // host on two links (a row, and a neighbour that does not forward); X1..X3 a line of switches.
    let text = "[simulation]\nduration = \"1ms\"\nrecord_interval = \"0s\"\n\
        [[switch]]\nnames = [\"S1..S4\", \"A1..A2\", \"X1..X3\"]\n[[host]]\nnames = [\"H1..H8\", \"M\"]\n\
        [[link]]\nbetween = [\"S1..S3\", \"A1..A2\"]\n[[link]]\nbetween = [\"S4\", [\"A2\", \"X3\"]]\n\
        [[link]]\nbetween = [\"A1\", \"X1\"]\n[[link]]\nbetween = [\"A2\", \"X2\"]\n[[link]]\nbetween = [\"X1\", \"X2\"]\n\
        [[link]]\nbetween = [\"X2\", \"X3\"]\n[[link]]\nbetween = [\"M\", [\"X1\", \"X3\"]]\n\
        [[link]]\nbetween = [\"S1\", \"H1..H2\"]\n[[link]]\nbetween = [\"S2\", \"H3\"]\n[[link]]\nbetween = [\"S3\", \"H4\"]\n\
        [[link]]\nbetween = [\"S4\", \"H5\"]\n[[link]]\nbetween = [\"X3\", \"H6..H7\"]\n[[link]]\nbetween = [\"A1\", \"H8\"]\n\
        [[flow]]\nfrom = \"H1\"\nto = \"H6\"\ntraffic = { kind = \"cbr\", rate = \"1Mbps\" }\n";
    same_routes_as_a_search_per_column(&sim(text, None));
}

#[test]
fn a_fat_tree_takes_no_search_and_a_fabric_that_is_almost_one_a_search_per_class() {
    // A fat tree's columns come from its tiers (net/updown.rs); take one core link away and it is
    // no longer one (a core switch misses a pod): a search per twin class (pod), the same routes
    // as a search per target.
    for k in [4, 8, 16] {
        let s = fat_tree_k(k, "[routing]\necmp = true");
        assert_eq!(s.routes.searches(), 0, "k = {k}");
        assert_eq!(s.routes.entries(), 7 * k * k * k / 4, "k = {k}");
    }
    for k in [4, 6] {
        let text = fat_tree_k_text(k, "").replacen(&format!("between = [\"A1\", \"C1..C{}\"]", k / 2), &format!("between = [\"A1\", \"C2..C{}\"]", k / 2), 1);
        let s = sim(&text, None);
        assert_eq!(s.routes.searches(), k, "k = {k}");
        same_routes_as_a_search_per_column(&s);
    }
}
