//! `sim::cluster`'s reference text: the section head (model, policies, result, validation) and
//! the function's entry, shown by `labforge lib` and in docs/library.md.

use super::super::FnDoc;

/// The section's head in the reference: the model, the policies, the result, the validation.
pub(crate) const SPEC: &str = "`sim::cluster(config)` simulates a shared GPU cluster event by \
event and returns a record of what it measured; the same configuration gives the same record, \
bit for bit, in the terminal and in the page (its draws are `rand::`'s generator, seeded with \
`seed`, and the library's own exp and ln).\n\n\
- **Cluster**: `nodes` × `gpus_per_node` GPUs (G in all). A job is gang-scheduled: it starts \
only when all its GPUs are free at once. A job of at most one node's GPUs goes to the node with \
the fewest free GPUs that holds it (best fit; ties: the lower node); a larger one must be whole \
nodes and takes the lowest wholly free ones (other sizes are an error).\n\
- **Workload**: `teams` teams; team t submits jobs of `sizes[t mod len]` GPUs in a Poisson \
stream of rate load·G / (teams · size · mean), so every team offers the same GPU-time and all \
together offer `load`·G. The first `jobs` arrivals are simulated (the next arrival is the \
earliest of the teams' next ones; ties: the lower team) and the run goes on until the last \
finishes. Durations are lognormal with mean `mean` and coefficient of variation `cs` \
(σ² = ln(1 + cs²), μ = ln mean − σ²/2; `cs` = 3 puts the median at 32% of the mean) or, with \
`dist: \"exponential\"`, exponential. Draw order: each team's first gap, then per arrival its \
duration and that team's next gap.\n\
- **Events**: at each instant every completion frees its GPUs (in job order), then every \
arrival joins the queue, then one scheduling pass runs. A pass looks at the `window` oldest \
waiting jobs (as Slurm's queue depth) and starts the best of them by the policy (ties: the \
older job) as long as it fits; when the best does not fit it is blocked, and without backfill \
the pass ends there (strict order: a blocked gang job holds up everyone behind it).\n\
- **Policies**: `fifo`, the oldest first; `sjf`, the fewest GPU-hours (size × duration; \
durations are known exactly) first; `fair`, the team with the least GPU-time started so far \
first (oldest first within a team); `mix`, the highest w_age·A + w_size·S + w_fair·F first, \
with Slurm-style factors in [0, 1]: age A = min(1, wait so far / `max_age`), size \
S = 1 / (1 + size·duration / (G·mean)) and fair share F = 2^(−teams·U), U the team's share of \
all GPU-time started so far (F = 1 before any start); only the weights' ratios matter.\n\
- **Backfill** (`backfill: true`, EASY): the blocked job gets a reservation at its shadow \
time, the first running job's end at which, with every job ending then released, it fits; the \
other window jobs, in policy order, start now if they fit and either end by the shadow time or \
use only GPUs the reservation leaves spare.\n\
- **Result**: `utilization`, busy GPU-time in [0, horizon] / (G·horizon), horizon being the \
last arrival (with heavy tails and few jobs of the big teams it can fall well short of `load`); \
`fragmentation`, GPU-time idle while some job waits, over the same denominator; `mean_wait`, \
`p50_wait`, `p99_wait` (`stats::percentile`), `max_wait`, from arrival to start, in `mean`'s \
unit; `waited`, the fraction of jobs that waited at all; `jain`, Jain's index over the teams of \
each team's mean run / (wait + run) (1: every team served alike); `team_wait`, each team's mean \
wait; `horizon`; `makespan`, the last completion; and `points` equal bins over [0, horizon] as \
lists for charts: `time` (each bin's end), `busy` (its utilization) and `queued` (its mean \
number of waiting jobs). Sweep a chart over the bin index i with `at(r.busy, i)`.\n\
- **Validation** (crates/engine/src/library/sim_tests.rs, 5 to 8 seeds of 100,000 to 200,000 \
jobs each): one GPU with exponential durations is M/M/1, W_q = ρ·mean/(1 − ρ), within 3% at \
ρ = 0.5 and 6% at 0.8; eight one-GPU servers (8 nodes × 1 or 1 × 8) are M/M/8, whose mean \
wait C(8, a)·mean/(8(1 − ρ)), probability of waiting C(8, a) (Erlang C) and p99 wait \
(`queue::mmc_wait`, `queue::erlang_c`, `queue::mmc_wait_p`) it meets within 6% (ρ = 0.7), 12% \
(ρ = 0.9), 3% and 8%; one GPU with lognormal durations of C_s = 2 is M/G/1, the \
Pollaczek–Khinchine wait (`queue::pk_wait`) within 12% at ρ = 0.7. Each tolerance is at least \
twice the standard error of the seeds' estimates (waits in a queue are correlated, so that \
error is much larger than σ/√n); closed forms: L. Kleinrock, Queueing Systems Vol. 1 (Wiley \
1975), §3.2 (M/M/1), §3.5 (M/M/m, Erlang C), §5.6 (P-K mean value formula).\n\n";

pub(crate) const DOCS: &[FnDoc] = &[FnDoc {
    path: "sim::cluster",
    signature: "sim::cluster(config: map) -> map",
    summary: "A deterministic discrete-event simulation of a shared GPU cluster (the model, \
              policies and validation are at the top of this section); the same numbers in \
              the terminal and the page. config keys, each optional (default in brackets): \
              seed [1]; nodes [32]; gpus_per_node [8]; teams [4]; sizes [[1]], team t's jobs \
              need sizes[t mod len] GPUs; jobs [2000], arrivals; load [0.8], offered load; mean \
              [60], mean duration; cs [1], its coefficient of variation; dist [\"lognormal\"] \
              or \"exponential\"; policy [\"fifo\"], \"sjf\", \"fair\" or \"mix\"; w_age, \
              w_size, w_fair [1 each], the mix's weights; max_age [10·mean]; backfill \
              [false]; window [64]; points [40]. Result: utilization, fragmentation, \
              mean_wait, p50_wait, p99_wait, max_wait, waited, jain, team_wait, horizon, \
              makespan, and the series time, busy, queued. An unknown key or a value out of \
              range is an error naming it. Charges jobs·(1 + window) to the work budget.",
    units: "mean and max_age: any time unit (minutes, hours); waits, horizon, makespan and \
            time: that unit; sizes: GPUs; load, utilization, fragmentation, busy, jain: \
            fractions; queued: jobs.",
    source: "Discrete-event simulation (A. M. Law, Simulation Modeling and Analysis, 5th ed., \
             McGraw-Hill 2015, ch. 1); EASY backfilling (D. Lifka, \"The ANL/IBM SP scheduling \
             system\", JSSPP 1995; A. Mu'alem, D. Feitelson, IEEE TPDS 12(6), 2001); the mix's \
             factors after Slurm's priority/multifactor plugin (SchedMD documentation, \
             \"Multifactor Priority Plugin\"); Jain's index (R. Jain, D. Chiu, W. Hawe, DEC-TR-301, \
             1984); draws as rand::. Validated against M/M/1, M/M/c (Erlang C) and M/G/1 \
             (Pollaczek–Khinchine) mean waits (crates/engine/src/library/sim_tests.rs).",
    example: "sim::cluster(#{ nodes: 4, gpus_per_node: 8, teams: 2, sizes: [1, 8], jobs: 200, \
              load: 0.7, mean: 30.0, cs: 2.0, points: 4 })",
}];
