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
use super::stats::{exp_a, ln_a, percentile};

mod config;
mod docs;

pub(crate) use config::{config, cost, Config, Policy};
pub(crate) use docs::{DOCS, SPEC};

type Res<T> = Result<T, Box<EvalAltResult>>;

const LN_2: f64 = std::f64::consts::LN_2;

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

/// The cluster's free GPUs per node, with a count of nodes by free GPUs.
struct Nodes {
    gpn: usize,
    free: Vec<usize>,
    by_free: Vec<usize>,
    total_free: usize,
}

impl Nodes {
    fn fits(&self, s: usize) -> bool {
        if s > self.total_free {
            return false;
        }
        if s > self.gpn {
            return self.by_free[self.gpn] * self.gpn >= s;
        }
        (s..=self.gpn).any(|k| self.by_free[k] > 0)
    }

    fn take(&mut self, node: usize, k: usize) {
        self.by_free[self.free[node]] -= 1;
        self.free[node] -= k;
        self.by_free[self.free[node]] += 1;
        self.total_free -= k;
    }

    fn give(&mut self, node: usize, k: usize) {
        self.by_free[self.free[node]] -= 1;
        self.free[node] += k;
        self.by_free[self.free[node]] += 1;
        self.total_free += k;
    }
}

/// Where a job of `s` GPUs goes on `free` (it must fit): up to one node, the one with the
/// fewest free GPUs that holds it (best fit; ties: the lower node); more, the lowest wholly
/// free nodes. Pairs (node, GPUs).
fn place(free: &[usize], gpn: usize, s: usize) -> Vec<(usize, usize)> {
    if s > gpn {
        let mut out = Vec::with_capacity(s / gpn);
        for (n, &f) in free.iter().enumerate() {
            if out.len() == s / gpn {
                break;
            }
            if f == gpn {
                out.push((n, gpn));
            }
        }
        return out;
    }
    let mut best = usize::MAX;
    for (n, &f) in free.iter().enumerate() {
        if f >= s && (best == usize::MAX || f < free[best]) {
            best = n;
        }
    }
    vec![(best, s)]
}

fn fits_on(free: &[usize], gpn: usize, s: usize) -> bool {
    if s > gpn {
        free.iter().filter(|&&f| f == gpn).count() * gpn >= s
    } else {
        free.iter().any(|&f| f >= s)
    }
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
    /// Waiting jobs in arrival order.
    queue: Vec<usize>,
    placed: Vec<Vec<(usize, usize)>>,
    start: Vec<f64>,
    usage: Vec<f64>,
    used: f64,
    /// The weighted mix's fair-share factor of each team during one pass ([`Sim::best`]),
    /// NaN until computed: it depends only on the team, so a window of 16 jobs of 5 teams
    /// costs 5 exponentials, not 16 (the same value either way, bit for bit).
    fair: Vec<f64>,
}

impl Sim<'_> {
    /// The policy's key of waiting job `j` at `now`: lower goes first (ties: the lower job).
    fn key(&mut self, j: usize, now: f64) -> f64 {
        let job = &self.jobs[j];
        let g = self.nodes.free.len() as f64 * self.c.gpn as f64;
        match self.c.policy {
            Policy::Fifo => job.arrival,
            Policy::Sjf => job.size as f64 * job.dur,
            Policy::Fair => self.usage[job.team],
            Policy::Mix => {
                let age = (now - job.arrival) / self.c.max_age;
                let age = if age < 1.0 { age } else { 1.0 };
                let size = 1.0 / (1.0 + job.size as f64 * job.dur / (g * self.c.mean));
                let fair = if self.used > 0.0 {
                    if self.fair[job.team].is_nan() {
                        self.fair[job.team] = exp_a(
                            0.0 - self.usage[job.team] / self.used * self.c.teams as f64 * LN_2,
                        );
                    }
                    self.fair[job.team]
                } else {
                    1.0
                };
                0.0 - (self.c.w_age * age + self.c.w_size * size + self.c.w_fair * fair)
            }
        }
    }

    /// The position in the queue of the best of the window's jobs.
    fn best(&mut self, now: f64) -> usize {
        self.fair.fill(f64::NAN);
        let end = self.queue.len().min(self.c.window);
        let mut b = 0;
        let mut bk = self.key(self.queue[0], now);
        for i in 1..end {
            let k = self.key(self.queue[i], now);
            if k < bk {
                b = i;
                bk = k;
            }
        }
        b
    }

    fn launch(&mut self, pos: usize, now: f64, at: Vec<(usize, usize)>) {
        let j = self.queue.remove(pos);
        for &(n, k) in &at {
            self.nodes.take(n, k);
        }
        self.placed[j] = at;
        self.start[j] = now;
        let area = self.jobs[j].size as f64 * self.jobs[j].dur;
        self.usage[self.jobs[j].team] += area;
        self.used += area;
        let end = now + self.jobs[j].dur;
        let i = self
            .running
            .partition_point(|&(e, k)| e < end || (e == end && k < j));
        self.running.insert(i, (end, j));
    }

    fn schedule(&mut self, now: f64) {
        let mut blocked = None;
        while !self.queue.is_empty() {
            let pos = self.best(now);
            let s = self.jobs[self.queue[pos]].size;
            if self.nodes.fits(s) {
                let at = place(&self.nodes.free, self.c.gpn, s);
                self.launch(pos, now, at);
            } else {
                blocked = Some(pos);
                break;
            }
        }
        let Some(head) = blocked else { return };
        if !self.c.backfill {
            return;
        }
        let head_job = self.queue[head];
        let s = self.jobs[head_job].size;
        // The reservation: release running jobs in end order (all those ending at one instant
        // together) until the head fits; what is left after placing it there is spare.
        let mut spare = self.nodes.free.clone();
        let mut shadow = f64::INFINITY;
        let mut i = 0;
        while i < self.running.len() {
            let e = self.running[i].0;
            while i < self.running.len() && self.running[i].0 == e {
                for &(n, k) in &self.placed[self.running[i].1] {
                    spare[n] += k;
                }
                i += 1;
            }
            if fits_on(&spare, self.c.gpn, s) {
                shadow = e;
                break;
            }
        }
        if shadow == f64::INFINITY {
            return;
        }
        for (n, k) in place(&spare, self.c.gpn, s) {
            spare[n] -= k;
        }
        // The other window jobs in policy order at this instant (ties: the older job).
        let end = self.queue.len().min(self.c.window);
        let mut order: Vec<(f64, usize)> = (0..end)
            .filter(|&p| p != head)
            .map(|p| (self.key(self.queue[p], now), self.queue[p]))
            .collect();
        order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (_, j) in order {
            let s = self.jobs[j].size;
            if !self.nodes.fits(s) {
                continue;
            }
            let at = place(&self.nodes.free, self.c.gpn, s);
            if now + self.jobs[j].dur > shadow {
                if at.iter().any(|&(n, k)| spare[n] < k) {
                    continue;
                }
                for &(n, k) in &at {
                    spare[n] -= k;
                }
            }
            let pos = self.queue.iter().position(|&q| q == j).unwrap();
            self.launch(pos, now, at);
        }
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
    let mut sim = Sim {
        c,
        jobs,
        nodes: Nodes {
            gpn: c.gpn,
            free: vec![c.gpn; c.nodes],
            by_free,
            total_free: g,
        },
        running: Vec::new(),
        queue: Vec::new(),
        placed: vec![Vec::new(); n],
        start: vec![0.0; n],
        usage: vec![0.0; c.teams],
        used: 0.0,
        fair: vec![f64::NAN; c.teams],
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
        while sim.running.first().is_some_and(|r| r.0 == now) {
            let (_, j) = sim.running.remove(0);
            for (node, k) in std::mem::take(&mut sim.placed[j]) {
                sim.nodes.give(node, k);
            }
            makespan = now;
        }
        while next < n && sim.jobs[next].arrival == now {
            sim.queue.push(next);
            next += 1;
        }
        sim.schedule(now);
    }
    let waits: Vec<f64> = (0..n).map(|j| sim.start[j] - sim.jobs[j].arrival).collect();
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
    Outcome {
        utilization: busy_area / (gf * horizon),
        fragmentation: idle_waiting / (gf * horizon),
        mean_wait: sum / n as f64,
        p50_wait: percentile(&waits, 50.0),
        p99_wait: percentile(&waits, 99.0),
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
