//! `sim::cluster`'s cluster state: the free GPUs per node counted by free GPUs ([`Nodes`]), and
//! the backfill's view ahead kept from pass to pass ([`Ahead`]).

/// The cluster's free GPUs per node, with a count of nodes by free GPUs.
#[derive(Default)]
pub(super) struct Nodes {
    pub(super) gpn: usize,
    pub(super) free: Vec<usize>,
    pub(super) by_free: Vec<usize>,
    pub(super) total_free: usize,
}

impl Nodes {
    pub(super) fn fits(&self, s: usize) -> bool {
        if s > self.total_free {
            return false;
        }
        if s > self.gpn {
            return self.by_free[self.gpn] * self.gpn >= s;
        }
        (s..=self.gpn).any(|k| self.by_free[k] > 0)
    }

    /// The largest job that fits: a job of s GPUs fits if and only if s is at most this
    /// (with a wholly free node every job up to a node fits, and more than a node needs
    /// wholly free nodes).
    pub(super) fn largest(&self) -> usize {
        let whole = self.by_free[self.gpn] * self.gpn;
        let one = (0..=self.gpn)
            .rev()
            .find(|&k| self.by_free[k] > 0)
            .unwrap_or(0);
        whole.max(one)
    }

    /// The node a job of `s` ≤ gpn GPUs goes to (it must fit): the one with the fewest free
    /// GPUs that holds it (best fit; ties: the lower node). The fewest is the least count
    /// from `s` up with a node, so the scan of the nodes stops at the first that has it.
    pub(super) fn best_fit(&self, s: usize) -> usize {
        let f = (s..=self.gpn)
            .find(|&f| self.by_free[f] > 0)
            .unwrap_or(self.gpn);
        self.free.iter().position(|&x| x == f).unwrap_or(usize::MAX)
    }

    /// Where a job of `s` GPUs goes (it must fit): up to a node, [`Nodes::best_fit`],
    /// returned; more, the lowest wholly free nodes (s / gpn of them, each wholly taken),
    /// written to `out`.
    pub(super) fn place(&self, s: usize, out: &mut Vec<usize>) -> usize {
        if s <= self.gpn {
            return self.best_fit(s);
        }
        out.clear();
        for (n, &f) in self.free.iter().enumerate() {
            if out.len() == s / self.gpn {
                break;
            }
            if f == self.gpn {
                out.push(n);
            }
        }
        usize::MAX
    }

    /// Becomes a copy of `o` (keeping its own allocations).
    pub(super) fn copy_from(&mut self, o: &Nodes) {
        self.gpn = o.gpn;
        self.free.clone_from(&o.free);
        self.by_free.clone_from(&o.by_free);
        self.total_free = o.total_free;
    }

    pub(super) fn take(&mut self, node: usize, k: usize) {
        self.by_free[self.free[node]] -= 1;
        self.free[node] -= k;
        self.by_free[self.free[node]] += 1;
        self.total_free -= k;
    }

    pub(super) fn give(&mut self, node: usize, k: usize) {
        self.by_free[self.free[node]] -= 1;
        self.free[node] += k;
        self.by_free[self.free[node]] += 1;
        self.total_free += k;
    }
}

/// The backfill's view ahead, kept across passes instead of recomputed from the running
/// jobs at each: the free GPUs per node at time `at` were every job running now that ends by
/// `at` released (counted by free GPUs as [`Nodes`]). A completion leaves it as it is (the job
/// was released there already) while `at` is not past; a launch of a job that ends after `at`
/// takes its GPUs; once the time passes `at` it is the free GPUs now. The blocked job's
/// shadow time is the earliest end of a running job at which it fits, and it fits from there
/// on (the free GPUs only grow with the time, and a larger job fits only where a smaller one
/// does), so the view moves to it by releasing (later) or taking back (earlier) the jobs
/// ending in between, which is what releasing every running job in end order would give.
pub(super) struct Ahead {
    pub(super) at: f64,
    pub(super) nodes: Nodes,
    /// `at` is the earliest end at which a job of this many GPUs, and so any larger one that
    /// fits at `at`, fits (usize::MAX: not known). A launch keeps that: it takes GPUs only
    /// before its end, where such a job did not fit; so does a completion, before `at`.
    pub(super) least: usize,
}

impl Default for Ahead {
    fn default() -> Ahead {
        Ahead {
            at: f64::NEG_INFINITY,
            nodes: Nodes::default(),
            least: usize::MAX,
        }
    }
}
