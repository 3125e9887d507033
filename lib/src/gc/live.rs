//! The live set: a real object graph the collector must trace on every cycle.
//!
//! Nodes are separate heap allocations of [`NODE_BYTES`] each. A random tree links them
//! all to the root (so every node is reachable), and each node has one more edge to a
//! random node (so some are reached twice and cycles exist: marking must check a node's
//! mark before following it). Tracing chases pointers in random memory order, as a real
//! mark phase does. Marks are atomic so several mark workers can share one graph
//! ([`super::mark`]): whoever swaps the cycle number into a node first owns it.

use std::mem::size_of;
use std::sync::atomic::{AtomicU32, Ordering};

pub(super) const NO_CHILD: u32 = u32::MAX;
/// Tree edges plus one cross edge.
const CHILDREN: usize = 3;

/// One node: its mark, three edges and a payload that rounds it to [`NODE_BYTES`].
#[derive(Debug)]
#[repr(C)]
struct Node {
    /// The cycle that last marked this node.
    marked_in_cycle: AtomicU32,
    children: [u32; CHILDREN],
    payload: [u64; 6],
}

/// Bytes of one live node (a whole cache line).
pub const NODE_BYTES: u64 = size_of::<Node>() as u64;

#[derive(Debug)]
pub struct LiveGraph {
    /// One allocation per node, on purpose: tracing must chase pointers the way a real
    /// heap's objects make it, not walk one contiguous array.
    #[allow(clippy::vec_box)]
    nodes: Vec<Box<Node>>,
    root: u32,
    /// The last cycle number handed out: marks compare against it, across trials.
    epoch: AtomicU32,
}

impl LiveGraph {
    /// Builds `live_bytes / NODE_BYTES` nodes, linked from a seed so runs are repeatable.
    pub fn build(live_bytes: u64, seed: u64) -> Self {
        let count = usize::try_from(live_bytes / NODE_BYTES).unwrap_or(u32::MAX as usize).min(NO_CHILD as usize - 1);
        let mut random = SplitMix64(seed);
        let mut nodes: Vec<Box<Node>> = (0..count)
            .map(|index| {
                Box::new(Node {
                    marked_in_cycle: AtomicU32::new(0),
                    children: [NO_CHILD; CHILDREN],
                    payload: [index as u64; 6],
                })
            })
            .collect();
        // The tree is a binary heap over a random permutation: order[k]'s children are
        // order[2k+1] and order[2k+2], so neighbours in the tree lie far apart in memory.
        let mut order: Vec<u32> = (0..count as u32).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, random.below(i as u64 + 1) as usize);
        }
        for (position, &index) in order.iter().enumerate() {
            let node = &mut nodes[index as usize];
            for (slot, child) in [2 * position + 1, 2 * position + 2].into_iter().enumerate() {
                node.children[slot] = order.get(child).copied().unwrap_or(NO_CHILD);
            }
            node.children[2] = random.below(count as u64) as u32;
        }
        Self { nodes, root: order.first().copied().unwrap_or(NO_CHILD), epoch: AtomicU32::new(0) }
    }

    pub fn node_count(&self) -> u64 {
        self.nodes.len() as u64
    }

    pub fn bytes(&self) -> u64 {
        self.node_count() * NODE_BYTES
    }

    /// The graph's own root ([`NO_CHILD`] when it is empty).
    pub fn root(&self) -> u32 {
        self.root
    }

    /// A node chosen by `pick` among all of them (for a worker's roots).
    pub fn node_at(&self, pick: u64) -> u32 {
        (pick % self.node_count().max(1)) as u32
    }

    /// A cycle number no earlier marking used (never 0, the mark of a fresh node).
    pub fn next_epoch(&self) -> u32 {
        let epoch = self.epoch.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
        if epoch == 0 {
            self.next_epoch()
        } else {
            epoch
        }
    }

    /// Marks `node` for `cycle`; true when this call marked it first (then the caller
    /// traces its children).
    pub fn claim(&self, node: u32, cycle: u32) -> bool {
        self.nodes[node as usize].marked_in_cycle.swap(cycle, Ordering::Relaxed) != cycle
    }

    /// The edges of `node` that lead somewhere.
    pub fn children(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        self.nodes[node as usize].children.iter().copied().filter(|&child| child != NO_CHILD)
    }

    /// Marks every node reachable from the root on one thread and returns how many were
    /// marked (the check after a trial; cycles mark in parallel).
    pub fn trace(&self) -> u64 {
        let cycle = self.next_epoch();
        let mut marked = 0;
        let mut stack = Vec::with_capacity(64);
        if self.root != NO_CHILD {
            stack.push(self.root);
        }
        while let Some(node) = stack.pop() {
            if self.claim(node, cycle) {
                marked += 1;
                stack.extend(self.children(node));
            }
        }
        marked
    }
}

/// Vigna's SplitMix64: a small, good-enough generator for building the graph.
#[derive(Debug)]
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_is_one_cache_line() {
        assert_eq!(NODE_BYTES, 64);
    }

    #[test]
    fn trace_reaches_every_node_every_cycle() {
        let graph = LiveGraph::build(1 << 20, 7);
        assert_eq!(graph.node_count(), 16_384);
        assert_eq!(graph.bytes(), 1 << 20);
        for _ in 0..3 {
            assert_eq!(graph.trace(), 16_384);
        }
        assert!(!graph.claim(graph.root(), 3), "already marked in this cycle");
    }

    #[test]
    fn a_cut_edge_is_detected_by_the_trace() {
        let mut graph = LiveGraph::build(64 * 100, 3);
        let root = graph.root as usize;
        graph.nodes[root].children = [NO_CHILD; CHILDREN];
        assert!(graph.trace() < graph.node_count());
    }

    #[test]
    fn tiny_and_empty_graphs() {
        assert_eq!(LiveGraph::build(0, 1).trace(), 0);
        assert_eq!(LiveGraph::build(64, 1).trace(), 1);
        assert_eq!(LiveGraph::build(100, 1).node_count(), 1);
    }
}
