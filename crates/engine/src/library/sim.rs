//! `sim::cluster` — a deterministic discrete-event simulation of a shared GPU cluster.
//!
//! Nodes × GPUs per node; each team submits gang-scheduled jobs of one size in a Poisson stream;
//! durations are exponential or lognormal with a given coefficient of variation; a policy
//! (FIFO, smallest-job-first, fair share, or a weighted mix in the style of Slurm's multifactor
//! priority) orders the waiting jobs, optionally with EASY backfilling. The page's twin is
//! `renderers/html/library/sim.js`: the same draws (the `rand::` generator and the library's own
//! exp and ln), the same event order and tie-breaks and the same floating-point operations in the
//! same order, so every number is the same bits in the terminal and the page.
//!
//! Event order: at each instant, every completion (in ascending job index) frees its GPUs, then
//! every arrival joins the queue, then one scheduling pass runs. A pass looks at the `window`
//! oldest waiting jobs; it repeatedly starts the best of them by the policy (ties: the older
//! job) while it fits; when the best does not fit it is blocked, and without backfill the pass
//! ends (strict order). With backfill the blocked job gets a reservation at the earliest time
//! enough GPUs free up (its shadow time, from the running jobs' known end times), and the other
//! window jobs, in policy order, start if they fit now and either end by the shadow time or
//! leave the reserved GPUs alone.

use rhai::{Dynamic, EvalAltResult, FuncRegistration, Map, Module};

use super::random::Rng;
use super::stats::{exp_a, ln_a, percentile_sorted, sort};

mod config;
mod docs;
mod nodes;

pub(crate) use config::{config, cost, Config, Policy};
pub(crate) use docs::{DOCS, SPEC};
use nodes::{Ahead, Nodes};

type Res<T> = Result<T, Box<EvalAltResult>>;

const LN_2: f64 = std::f64::consts::LN_2;

#[cfg(test)]
thread_local! {
    /// Tests: what a run keeps from pass to pass (the backfill's view ahead, the mix's best
    /// and the keys of its last scan) recomputed at every pass instead, to check that keeping
    /// it changes no output bit.
    static AFRESH: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether to recompute at every pass what a run keeps (only ever in tests).
fn afresh() -> bool {
    #[cfg(test)]
    return AFRESH.with(|a| a.get());
    #[cfg(not(test))]
    false
}

struct Job {
    arrival: f64,
    team: usize,
    size: usize,
    dur: f64,
}

/// Uniform, exponential and normal draws from one generator, in the order the page repeats.
struct Draws {
    g: Rng,
    spare: f64,
    has_spare: bool,
}

impl Draws {
    fn exponential(&mut self, mean: f64) -> f64 {
        0.0 - mean * ln_a(1.0 - self.g.uniform())
    }

    /// Marsaglia's polar method, as rand::normal: u·f, then the spare v·f.
    fn normal(&mut self) -> f64 {
        if self.has_spare {
            self.has_spare = false;
            return self.spare;
        }
        loop {
            let u = 2.0 * self.g.uniform() - 1.0;
            let v = 2.0 * self.g.uniform() - 1.0;
            let s = u * u + v * v;
            if s >= 1.0 || s == 0.0 {
                continue;
            }
            let f = (-2.0 * ln_a(s) / s).sqrt();
            self.spare = v * f;
            self.has_spare = true;
            return u * f;
        }
    }
}

/// The jobs in arrival order: team t submits jobs of sizes[t mod len] GPUs at rate
/// load·G / (teams · size · mean), so every team offers the same GPU-time; the next arrival is
/// the earliest of the teams' next arrivals (ties: the lower team).
fn arrivals(c: &Config) -> Vec<Job> {
    let mut d = Draws {
        g: Rng::new(c.seed),
        spare: 0.0,
        has_spare: false,
    };
    let g = (c.nodes * c.gpn) as f64;
    let sigma2 = ln_a(1.0 + c.cs * c.cs);
    let sigma = sigma2.sqrt();
    let mu = ln_a(c.mean) - sigma2 / 2.0;
    let size: Vec<usize> = (0..c.teams).map(|t| c.sizes[t % c.sizes.len()]).collect();
    let gap: Vec<f64> = size
        .iter()
        .map(|&s| c.teams as f64 * s as f64 * c.mean / (c.load * g))
        .collect();
    let mut next: Vec<f64> = gap.iter().map(|&m| d.exponential(m)).collect();
    let mut jobs = Vec::with_capacity(c.jobs);
    for _ in 0..c.jobs {
        let mut t = 0;
        for k in 1..c.teams {
            if next[k] < next[t] {
                t = k;
            }
        }
        let dur = if c.lognormal {
            exp_a(mu + sigma * d.normal())
        } else {
            d.exponential(c.mean)
        };
        jobs.push(Job {
            arrival: next[t],
            team: t,
            size: size[t],
            dur,
        });
        next[t] += d.exponential(gap[t]);
    }
    jobs
}

/// What a simulation measured (see [`DOCS`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Outcome {
    pub utilization: f64,
    pub fragmentation: f64,
    pub mean_wait: f64,
    pub p50_wait: f64,
    pub p99_wait: f64,
    pub max_wait: f64,
    pub waited: f64,
    pub jain: f64,
    pub team_wait: Vec<f64>,
    pub horizon: f64,
    pub makespan: f64,
    pub time: Vec<f64>,
    pub busy: Vec<f64>,
    pub queued: Vec<f64>,
}

struct Sim<'a> {
    c: &'a Config,
    jobs: Vec<Job>,
    nodes: Nodes,
    /// Running jobs as (end time, job), ascending (ties: the lower job).
    running: Vec<(f64, usize)>,
    /// Waiting jobs in arrival order (which is job order).
    queue: Vec<usize>,
    /// Where each running job is: its node, or (more than a node) the offset in `pool` of its
    /// size / gpn wholly taken nodes.
    at: Vec<usize>,
    pool: Vec<usize>,
    start: Vec<f64>,
    usage: Vec<f64>,
    used: f64,
    /// Each job's part of its policy key that never changes: SJF's size × duration, the
    /// mix's weighted size factor (the same products, computed once).
    fixed: Vec<f64>,
    /// The weighted mix's fair-share factor of each team, NaN until computed since the last
    /// launch: it depends only on the team's usage and the total, which only a launch changes
    /// (the same value bit for bit as computing it for every job at every pass).
    fair: Vec<f64>,
    /// The smallest job size of any team.
    smallest: usize,
    /// With backfill, the free GPUs at a time ahead, kept from pass to pass ([`Ahead`]).
    ahead: Ahead,
    /// Scratch: a multi-node placement, the backfill's reservation (what is left at the
    /// shadow time once the blocked job is placed there) and its candidates.
    nodes_of: Vec<usize>,
    spare: Nodes,
    order: Vec<(f64, usize)>,
    /// The mix's keys of the window's jobs by position at the last [`Sim::best`] (the
    /// backfill's order after a blocked pass is of these: no launch came between), all of
    /// them if `keys_fresh`.
    keys: Vec<f64>,
    keys_fresh: bool,
    /// The mix's last best: its position in the queue, the window's end then and a lower
    /// bound of how much lower its key was than every other's (None since a launch).
    kept: Option<(usize, usize, f64)>,
    /// What a key's rounding stays well below: 10^-9 of the sum of the weights (and 10^-300).
    slack: f64,
}

/// The position of the first least of `keys` (none NaN).
fn first_least(keys: impl Iterator<Item = f64>) -> usize {
    let mut b = 0;
    let mut bk = f64::INFINITY;
    for (i, k) in keys.enumerate() {
        if i == 0 || k < bk {
            b = i;
            bk = k;
        }
    }
    b
}

impl Sim<'_> {
    /// The mix's fair-share factor of team `t` (1 before anything ran).
    fn fair_of(&mut self, t: usize) -> f64 {
        if self.used > 0.0 {
            if self.fair[t].is_nan() {
                self.fair[t] = exp_a(0.0 - self.usage[t] / self.used * self.c.teams as f64 * LN_2);
            }
            self.fair[t]
        } else {
            1.0
        }
    }

    /// The policy's key of waiting job `j` at `now`: lower goes first (ties: the lower job).
    fn key(&mut self, j: usize, now: f64) -> f64 {
        match self.c.policy {
            Policy::Fifo => self.jobs[j].arrival,
            Policy::Sjf => self.fixed[j],
            Policy::Fair => self.usage[self.jobs[j].team],
            Policy::Mix => {
                let age = (now - self.jobs[j].arrival) / self.c.max_age;
                let age = if age < 1.0 { age } else { 1.0 };
                let fair = self.fair_of(self.jobs[j].team);
                0.0 - (self.c.w_age * age + self.fixed[j] + self.c.w_fair * fair)
            }
        }
    }

    /// The position in the queue of the best of the window's jobs (FIFO's: the oldest, as
    /// the queue is in arrival order and ties go to the older job); the key of each policy in
    /// its own loop, as [`Sim::key`] computes it (one call of `key` per job, with its match on
    /// the policy, was not inlined: a quarter of the time of a fair-share run).
    fn best(&mut self, now: f64) -> usize {
        let end = self.queue.len().min(self.c.window);
        let q = &self.queue[..end];
        match self.c.policy {
            Policy::Fifo => 0,
            Policy::Sjf => first_least(q.iter().map(|&j| self.fixed[j])),
            Policy::Fair => first_least(q.iter().map(|&j| self.usage[self.jobs[j].team])),
            Policy::Mix => self.best_mix(now, end),
        }
    }

    /// [`Sim::best`] of the weighted mix. A scan keeps its best's position and a lower bound
    /// of how much lower its key is than every other job's of the window ([`Sim::kept`]).
    /// Until a launch (which changes the fair-share factors and the queue) every job's key
    /// but for the age term stays as it is, and the age term grows alike for every job whose
    /// age is not yet capped (a capped one only falls behind): so while the kept best is not
    /// capped and its margin is above the keys' rounding ([`Sim::slack`], 10^-9 of the sum
    /// of the weights, where the rounding is some 10^-15), no job of the last scan can be
    /// below it or tie it, and only the jobs that came into the window since compete with it
    /// (the margin less the slack stays a bound). The best is then the one a whole scan
    /// finds, and the keys computed are the same bits.
    fn best_mix(&mut self, now: f64, end: usize) -> usize {
        let (w_age, w_fair, max_age) = (self.c.w_age, self.c.w_fair, self.c.max_age);
        let mut b = usize::MAX;
        let mut bk = f64::INFINITY;
        let mut m = f64::INFINITY;
        let mut from = 0;
        if let Some((at, kept_end, margin)) = self.kept {
            let h = self.queue[at];
            let age = (now - self.jobs[h].arrival) / max_age;
            if margin > self.slack && age < 1.0 && !afresh() {
                let fair = self.fair_of(self.jobs[h].team);
                b = at;
                bk = 0.0 - (w_age * age + self.fixed[h] + w_fair * fair);
                m = margin - self.slack;
                from = kept_end;
            }
        }
        self.keys_fresh = from == 0;
        for i in from..end {
            let j = self.queue[i];
            let age = (now - self.jobs[j].arrival) / max_age;
            let age = if age < 1.0 { age } else { 1.0 };
            // Set only once something ran (`fair_of`'s 1 before that).
            let f = self.fair[self.jobs[j].team];
            let fair = if f.is_nan() {
                self.fair_of(self.jobs[j].team)
            } else {
                f
            };
            let k = 0.0 - (w_age * age + self.fixed[j] + w_fair * fair);
            self.keys[i] = k;
            if b == usize::MAX || k < bk {
                if b != usize::MAX {
                    m = bk - k;
                }
                b = i;
                bk = k;
            } else if k - bk < m {
                m = k - bk;
            }
        }
        self.kept = Some((b, end, m));
        b
    }

    /// Starts the job at queue position `pos` on `node` (more than a node: on `nodes_of`).
    fn launch(&mut self, pos: usize, now: f64, node: usize) {
        let j = self.queue.remove(pos);
        let (s, gpn) = (self.jobs[j].size, self.c.gpn);
        if s > gpn {
            self.at[j] = self.pool.len();
            for a in 0..s / gpn {
                let n = self.nodes_of[a];
                self.pool.push(n);
                self.nodes.take(n, gpn);
            }
        } else {
            self.at[j] = node;
            self.nodes.take(node, s);
        }
        self.start[j] = now;
        let area = s as f64 * self.jobs[j].dur;
        self.usage[self.jobs[j].team] += area;
        self.used += area;
        self.fair.fill(f64::NAN);
        self.kept = None;
        let end = now + self.jobs[j].dur;
        // The view ahead (kept only with backfill, and only while its time is not past).
        if self.c.backfill && end > self.ahead.at && self.ahead.at >= now {
            if s > gpn {
                for a in 0..s / gpn {
                    self.ahead.nodes.take(self.nodes_of[a], gpn);
                }
            } else {
                self.ahead.nodes.take(node, s);
            }
        }
        let i = self
            .running
            .partition_point(|&(e, k)| e < end || (e == end && k < j));
        self.running.insert(i, (end, j));
    }

    /// Job `j`'s nodes and their GPUs.
    fn held(&self, j: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        let (s, gpn, at) = (self.jobs[j].size, self.c.gpn, self.at[j]);
        let multi = if s > gpn {
            &self.pool[at..at + s / gpn]
        } else {
            &[]
        };
        let single = (s <= gpn).then_some((at, s));
        multi.iter().map(move |&n| (n, gpn)).chain(single)
    }

    /// The shadow time of a blocked job of `s` GPUs at `now`: [`Sim::ahead`] moved to the
    /// earliest end of a running job at which it fits (all the jobs ending at one instant
    /// together), as releasing the running jobs in end order from the free GPUs now would
    /// find it; infinite if none (it cannot be: once all have ended every job fits).
    fn shadow(&mut self, s: usize, now: f64) -> f64 {
        let mut ahead = std::mem::take(&mut self.ahead);
        if ahead.at < now || afresh() {
            ahead.at = now;
            ahead.nodes.copy_from(&self.nodes);
            ahead.least = usize::MAX;
        }
        if ahead.nodes.fits(s) {
            // Earlier while the job still fits once the jobs ending at `at` are taken back.
            while s < ahead.least {
                let lo = self.running.partition_point(|r| r.0 < ahead.at);
                let hi = self.running.partition_point(|r| r.0 <= ahead.at);
                if lo == hi {
                    break;
                }
                for r in lo..hi {
                    for (n, k) in self.held(self.running[r].1) {
                        ahead.nodes.take(n, k);
                    }
                }
                if !ahead.nodes.fits(s) {
                    for r in lo..hi {
                        for (n, k) in self.held(self.running[r].1) {
                            ahead.nodes.give(n, k);
                        }
                    }
                    break;
                }
                // Some job ended before: the GPUs now do not hold a blocked job.
                ahead.at = self.running[lo - 1].0;
            }
        } else {
            // Later: release the jobs ending after `at`, an instant at a time, until it fits.
            let mut i = self.running.partition_point(|r| r.0 <= ahead.at);
            let mut found = false;
            while i < self.running.len() && !found {
                let e = self.running[i].0;
                while i < self.running.len() && self.running[i].0 == e {
                    for (n, k) in self.held(self.running[i].1) {
                        ahead.nodes.give(n, k);
                    }
                    i += 1;
                }
                ahead.at = e;
                found = ahead.nodes.fits(s);
            }
            if !found {
                ahead.least = usize::MAX;
                self.ahead = ahead;
                return f64::INFINITY;
            }
        }
        ahead.least = s;
        let at = ahead.at;
        self.ahead = ahead;
        at
    }

    fn schedule(&mut self, now: f64) {
        // Nothing can start when no team's jobs fit, or when the window's smallest job does
        // not fit (what fits is monotone in the size): then the pass would change nothing.
        let end = self.queue.len().min(self.c.window);
        let largest = self.nodes.largest();
        if self.smallest > largest {
            return;
        }
        if !self.queue[..end]
            .iter()
            .any(|&j| self.jobs[j].size <= largest)
        {
            return;
        }
        let mut blocked = None;
        while !self.queue.is_empty() {
            let pos = self.best(now);
            let s = self.jobs[self.queue[pos]].size;
            if self.nodes.fits(s) {
                let node = self.nodes.place(s, &mut self.nodes_of);
                self.launch(pos, now, node);
            } else {
                blocked = Some(pos);
                break;
            }
        }
        let Some(head) = blocked else { return };
        if !self.c.backfill {
            return;
        }
        let s = self.jobs[self.queue[head]].size;
        let gpn = self.c.gpn;
        // The reservation: the view ahead moved to the earliest end of a running job at
        // which the head fits (its shadow time); what is left after placing it there is spare.
        let shadow = self.shadow(s, now);
        if shadow == f64::INFINITY {
            return;
        }
        let mut spare = std::mem::take(&mut self.spare);
        spare.copy_from(&self.ahead.nodes);
        let hn = spare.place(s, &mut self.nodes_of);
        if s > gpn {
            for &n in &self.nodes_of {
                spare.take(n, gpn);
            }
        } else {
            spare.take(hn, s);
        }
        // The other window jobs in policy order at this instant (ties: the older job).
        let end = self.queue.len().min(self.c.window);
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        for p in (0..end).filter(|&p| p != head) {
            let j = self.queue[p];
            let k = if self.c.policy == Policy::Mix && self.keys_fresh && !afresh() {
                self.keys[p]
            } else {
                self.key(j, now)
            };
            order.push((k, j));
        }
        order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        // Those that fit now start if they end by the shadow time or fit in the spare GPUs
        // (none can once fewer are free than the smallest job, or more are needed than spare).
        for &(_, j) in &order {
            if self.nodes.total_free < self.smallest {
                break;
            }
            let s = self.jobs[j].size;
            let late = now + self.jobs[j].dur > shadow;
            if !self.nodes.fits(s) || (late && spare.total_free < s) {
                continue;
            }
            let node = self.nodes.place(s, &mut self.nodes_of);
            if late {
                if s > gpn {
                    if self.nodes_of.iter().any(|&n| spare.free[n] < gpn) {
                        continue;
                    }
                    for &n in &self.nodes_of {
                        spare.take(n, gpn);
                    }
                } else {
                    if spare.free[node] < s {
                        continue;
                    }
                    spare.take(node, s);
                }
            }
            // The queue is in job order.
            let pos = self.queue.binary_search(&j).unwrap();
            self.launch(pos, now, node);
        }
        self.order = order;
        self.spare = spare;
    }
}

/// Runs the simulation (the caller has charged its cost).
pub(crate) fn run(c: &Config) -> Outcome {
    let jobs = arrivals(c);
    let n = jobs.len();
    let g = c.nodes * c.gpn;
    let gf = g as f64;
    let horizon = jobs[n - 1].arrival;
    let p = c.points;
    let mut by_free = vec![0; c.gpn + 1];
    by_free[c.gpn] = c.nodes;
    let fixed = jobs
        .iter()
        .map(|job| match c.policy {
            Policy::Sjf => job.size as f64 * job.dur,
            _ => c.w_size * (1.0 / (1.0 + job.size as f64 * job.dur / (gf * c.mean))),
        })
        .collect();
    let smallest = (0..c.teams).map(|t| c.sizes[t % c.sizes.len()]).min();
    let mut sim = Sim {
        c,
        jobs,
        nodes: Nodes {
            gpn: c.gpn,
            free: vec![c.gpn; c.nodes],
            by_free,
            total_free: g,
        },
        running: Vec::with_capacity(n.min(g)),
        queue: Vec::with_capacity(n),
        at: vec![0; n],
        pool: Vec::new(),
        start: vec![0.0; n],
        usage: vec![0.0; c.teams],
        used: 0.0,
        fixed,
        fair: vec![f64::NAN; c.teams],
        smallest: smallest.unwrap_or(1),
        nodes_of: Vec::with_capacity(c.nodes),
        ahead: Ahead::default(),
        spare: Nodes::default(),
        order: Vec::with_capacity(c.window),
        keys: vec![0.0; c.window],
        keys_fresh: false,
        kept: None,
        slack: (c.w_age + c.w_size + c.w_fair) * 1e-9 + 1e-300,
    };
    let edge = |b: usize| {
        if b + 1 == p {
            horizon
        } else {
            horizon * (b + 1) as f64 / p as f64
        }
    };
    let mut bin_busy = vec![0.0; p];
    let mut bin_queue = vec![0.0; p];
    let mut busy_area = 0.0;
    let mut idle_waiting = 0.0;
    let mut bin = 0;
    let mut now = 0.0;
    let mut next = 0;
    let mut makespan = 0.0;
    loop {
        let ta = if next < n {
            sim.jobs[next].arrival
        } else {
            f64::INFINITY
        };
        let tc = sim.running.first().map_or(f64::INFINITY, |r| r.0);
        let t = if tc <= ta { tc } else { ta };
        if t == f64::INFINITY {
            break;
        }
        // The integrals over [now, t] ∩ [0, horizon], bin by bin.
        let stop = if t < horizon { t } else { horizon };
        let busy = (g - sim.nodes.total_free) as f64;
        let free = sim.nodes.total_free as f64;
        let q = sim.queue.len() as f64;
        let mut t0 = now;
        while t0 < stop {
            let e = edge(bin);
            let seg = if stop < e { stop } else { e };
            let d = seg - t0;
            bin_busy[bin] += busy * d;
            bin_queue[bin] += q * d;
            busy_area += busy * d;
            if q > 0.0 {
                idle_waiting += free * d;
            }
            t0 = seg;
            if seg == e && bin + 1 < p {
                bin += 1;
            }
        }
        now = t;
        let done = sim.running.iter().take_while(|r| r.0 == now).count();
        for i in 0..done {
            let j = sim.running[i].1;
            let (s, gpn, at) = (sim.jobs[j].size, c.gpn, sim.at[j]);
            if s > gpn {
                for a in 0..s / gpn {
                    sim.nodes.give(sim.pool[at + a], gpn);
                }
            } else {
                sim.nodes.give(at, s);
            }
            makespan = now;
        }
        sim.running.drain(..done);
        while next < n && sim.jobs[next].arrival == now {
            sim.queue.push(next);
            next += 1;
        }
        sim.schedule(now);
    }
    let mut waits: Vec<f64> = (0..n).map(|j| sim.start[j] - sim.jobs[j].arrival).collect();
    let mut sum = 0.0;
    let mut max_wait = 0.0;
    let mut waited = 0.0;
    for &w in &waits {
        sum += w;
        if w > max_wait {
            max_wait = w;
        }
        if w > 0.0 {
            waited += 1.0;
        }
    }
    // Per team: mean wait, and mean of run / (wait + run) for Jain's index.
    let mut tw = vec![0.0; c.teams];
    let mut tr = vec![0.0; c.teams];
    let mut tn = vec![0.0; c.teams];
    for (j, job) in sim.jobs.iter().enumerate() {
        tw[job.team] += waits[j];
        let span = waits[j] + job.dur;
        tr[job.team] += if span > 0.0 { job.dur / span } else { 1.0 };
        tn[job.team] += 1.0;
    }
    let mut team_wait = Vec::new();
    let mut ratio = Vec::new();
    for t in 0..c.teams {
        if tn[t] > 0.0 {
            team_wait.push(tw[t] / tn[t]);
            ratio.push(tr[t] / tn[t]);
        } else {
            team_wait.push(f64::NAN);
        }
    }
    let mut time = Vec::with_capacity(p);
    let mut busy = Vec::with_capacity(p);
    let mut queued = Vec::with_capacity(p);
    let mut lo = 0.0;
    for b in 0..p {
        let e = edge(b);
        let w = e - lo;
        time.push(e);
        busy.push(if w > 0.0 { bin_busy[b] / (gf * w) } else { 0.0 });
        queued.push(if w > 0.0 { bin_queue[b] / w } else { 0.0 });
        lo = e;
    }
    // Both percentiles from one sort (every job starts, so no wait is NaN).
    sort(&mut waits);
    Outcome {
        utilization: busy_area / (gf * horizon),
        fragmentation: idle_waiting / (gf * horizon),
        mean_wait: sum / n as f64,
        p50_wait: percentile_sorted(&waits, 50.0),
        p99_wait: percentile_sorted(&waits, 99.0),
        max_wait,
        waited: waited / n as f64,
        jain: super::fleet::jain(&ratio),
        team_wait,
        horizon,
        makespan,
        time,
        busy,
        queued,
    }
}

fn floats(v: Vec<f64>) -> Dynamic {
    Dynamic::from_array(v.into_iter().map(Dynamic::from_float).collect())
}

/// The record `sim::cluster` returns.
pub(crate) fn to_map(o: Outcome) -> Map {
    let mut m = Map::new();
    for (k, v) in [
        ("utilization", o.utilization),
        ("fragmentation", o.fragmentation),
        ("mean_wait", o.mean_wait),
        ("p50_wait", o.p50_wait),
        ("p99_wait", o.p99_wait),
        ("max_wait", o.max_wait),
        ("waited", o.waited),
        ("jain", o.jain),
        ("horizon", o.horizon),
        ("makespan", o.makespan),
    ] {
        m.insert(k.into(), Dynamic::from_float(v));
    }
    m.insert("team_wait".into(), floats(o.team_wait));
    m.insert("time".into(), floats(o.time));
    m.insert("busy".into(), floats(o.busy));
    m.insert("queued".into(), floats(o.queued));
    m
}

/// Runs kept per thread, by configuration: a simulation is a pure function of its
/// configuration, and `check` runs the same ones again and again (a lab's search on every
/// compile, the same sampled settings on every track). The caller still charges each call its
/// full cost, so the work budget runs out where it would.
const KEPT: usize = 1024;

thread_local! {
    static RUNS: std::cell::RefCell<std::collections::HashMap<String, Outcome>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// [`run`], or the outcome of the last run of the same configuration on this thread.
pub(crate) fn run_kept(c: &Config) -> Outcome {
    let key = format!("{c:?}");
    if let Some(o) = RUNS.with(|r| r.borrow().get(&key).cloned()) {
        return o;
    }
    let o = run(c);
    RUNS.with(|r| {
        let mut r = r.borrow_mut();
        if r.len() >= KEPT {
            r.clear();
        }
        r.insert(key, o.clone());
    });
    o
}

pub(crate) fn cluster(m: &Map) -> Res<Map> {
    Ok(to_map(run_kept(&config(m)?)))
}

/// The module, with `charge` called with [`cost`] before each simulation.
pub(crate) fn module_with<C>(charge: C) -> Module
where
    C: Fn(u64) -> Res<()> + Clone + 'static,
{
    let mut m = Module::new();
    FuncRegistration::new("cluster").set_into_module(&mut m, move |cfg: Map| -> Res<Map> {
        charge(cost(&cfg))?;
        cluster(&cfg)
    });
    m
}

pub(crate) fn module() -> Module {
    module_with(|_| Ok(()))
}

#[cfg(test)]
#[path = "sim_tests.rs"]
mod tests;
