/* sim::cluster: twin of crates/engine/src/library/sim.rs, a discrete-event simulation of a GPU
   cluster. The same draws (stats.js's generator, expA and lnA, which that script puts in the
   helpers with percentileSorted; the page carries it with this one), the same event order and tie-breaks and the
   same floating-point operations in the same order, so every number is the same bits as in
   Rust. Its work is charged by rhai.js's _fn (jobs * (1 + window), simCost below). */
var labforgeTopics = labforgeTopics || {};
labforgeTopics.sim = function (lib, h) {
  "use strict";
  var P = "sim::cluster: ";
  var KEYS = ["seed", "nodes", "gpus_per_node", "teams", "sizes", "jobs", "load", "mean", "cs",
    "dist", "policy", "w_age", "w_size", "w_fair", "max_age", "backfill", "window", "points"];
  var POLICIES = { fifo: 0, sjf: 1, fair: 2, mix: 3 };

  function num(key, v) {
    if (typeof v !== "number") {
      h.fail(P + key + " must be a number");
    }
    return v;
  }
  function count(key, v, lo, hi) {
    var n = h.whole(num(key, v), hi);
    if (n < lo) {
      h.fail(P + key + " must be a whole number from " + lo + " to " + hi);
    }
    return n;
  }
  function positive(key, v) {
    if (!(isFinite(num(key, v)) && v > 0)) {
      h.fail(P + key + " must be a positive number");
    }
    return v;
  }
  function weight(key, v) {
    if (!(isFinite(num(key, v)) && v >= 0)) {
      h.fail(P + key + " must be a number \u2265 0");
    }
    return v;
  }

  function config(m) {
    var c = { seed: 1, nodes: 32, gpn: 8, teams: 4, sizes: [1], jobs: 2000, load: 0.8,
      mean: 60.0, cs: 1.0, lognormal: true, policy: 0, w_age: 1.0, w_size: 1.0, w_fair: 1.0,
      max_age: NaN, backfill: false, window: 64, points: 40 };
    /* Unknown keys in the order Rhai's map lists them (sorted). */
    Object.keys(m).sort().forEach(function (k) {
      if (KEYS.indexOf(k) < 0) {
        h.fail(P + "unknown key '" + k + "'; known keys: " + KEYS.join(", "));
      }
    });
    KEYS.forEach(function (key) {
      if (!Object.prototype.hasOwnProperty.call(m, key)) {
        return;
      }
      var v = m[key];
      if (key === "seed") {
        c.seed = count(key, v, 0, 9007199254740991);
      } else if (key === "nodes") {
        c.nodes = count(key, v, 1, 4096);
      } else if (key === "gpus_per_node") {
        c.gpn = count(key, v, 1, 64);
      } else if (key === "teams") {
        c.teams = count(key, v, 1, 64);
      } else if (key === "sizes") {
        if (!Array.isArray(v) || v.length === 0) {
          h.fail(P + "sizes must be a list of GPU counts");
        }
        c.sizes = v.map(function (x) {
          return count("each size", x, 1, 262144);
        });
      } else if (key === "jobs") {
        c.jobs = count(key, v, 1, 1e6);
      } else if (key === "load" || key === "mean" || key === "max_age") {
        c[key] = positive(key, v);
      } else if (key === "cs" || key === "w_age" || key === "w_size" || key === "w_fair") {
        c[key] = weight(key, v);
      } else if (key === "dist") {
        if (v !== "lognormal" && v !== "exponential") {
          h.fail(P + "dist must be \"lognormal\" or \"exponential\"");
        }
        c.lognormal = v === "lognormal";
      } else if (key === "policy") {
        if (typeof v !== "string" || !Object.prototype.hasOwnProperty.call(POLICIES, v)) {
          h.fail(P + "policy must be \"fifo\", \"sjf\", \"fair\" or \"mix\"");
        }
        c.policy = POLICIES[v];
      } else if (key === "backfill") {
        if (typeof v !== "boolean") {
          h.fail(P + "backfill must be true or false");
        }
        c.backfill = v;
      } else if (key === "window") {
        c.window = count(key, v, 1, 1000);
      } else {
        c.points = count(key, v, 1, 1000);
      }
    });
    var total = c.nodes * c.gpn;
    c.sizes.forEach(function (s) {
      if (s > total || (s > c.gpn && s % c.gpn !== 0)) {
        h.fail(P + "a job of " + s + " GPUs does not fit: sizes must be at most gpus_per_node (" +
          c.gpn + ") or whole nodes, and at most nodes \u00d7 gpus_per_node (" + total + ")");
      }
    });
    if (c.max_age !== c.max_age) {
      c.max_age = 10.0 * c.mean;
    }
    return c;
  }

  /* The jobs in arrival order, as columns: arrival, team, size, dur (sim.rs: arrivals). */
  function arrivals(c) {
    var u = h.generator(c.seed);
    var spare = 0.0;
    var hasSpare = false;
    function expo(mean) {
      return 0.0 - mean * h.lnA(1.0 - u());
    }
    function normal() {
      if (hasSpare) {
        hasSpare = false;
        return spare;
      }
      for (;;) {
        var a = 2.0 * u() - 1.0;
        var b = 2.0 * u() - 1.0;
        var s = a * a + b * b;
        if (s >= 1.0 || s === 0) {
          continue;
        }
        var f = Math.sqrt(-2.0 * h.lnA(s) / s);
        spare = b * f;
        hasSpare = true;
        return a * f;
      }
    }
    var g = c.nodes * c.gpn;
    var sigma2 = h.lnA(1.0 + c.cs * c.cs);
    var sigma = Math.sqrt(sigma2);
    var mu = h.lnA(c.mean) - sigma2 / 2.0;
    var size = [];
    var gap = [];
    var next = [];
    var t;
    for (t = 0; t < c.teams; t++) {
      size.push(c.sizes[t % c.sizes.length]);
      gap.push(c.teams * size[t] * c.mean / (c.load * g));
    }
    for (t = 0; t < c.teams; t++) {
      next.push(expo(gap[t]));
    }
    var jobs = { arrival: new Float64Array(c.jobs), team: new Int32Array(c.jobs),
      size: new Int32Array(c.jobs), dur: new Float64Array(c.jobs) };
    for (var i = 0; i < c.jobs; i++) {
      t = 0;
      for (var k = 1; k < c.teams; k++) {
        if (next[k] < next[t]) {
          t = k;
        }
      }
      jobs.dur[i] = c.lognormal ? h.expA(mu + sigma * normal()) : expo(c.mean);
      jobs.arrival[i] = next[t];
      jobs.team[i] = t;
      jobs.size[i] = size[t];
      next[t] += expo(gap[t]);
    }
    return jobs;
  }

  /* Where a job of s GPUs that fits goes on free, counted by free GPUs in by (sim.rs:
     Nodes::place): up to one node, the first with the least count from s up that has a node
     (best fit), returned; more, the lowest wholly free nodes, written to out, -1 returned. */
  function place(free, by, gpn, s, out) {
    var n;
    if (s > gpn) {
      var m = 0;
      for (n = 0; n < free.length && m < s / gpn; n++) {
        if (free[n] === gpn) {
          out[m++] = n;
        }
      }
      return -1;
    }
    while (s < gpn && by[s] === 0) {
      s++;
    }
    for (n = 0; n < free.length && free[n] !== s; n++) {
      /* to the first node with s free */
    }
    return n;
  }

  function run(c) {
    var jobs = arrivals(c);
    var arr = jobs.arrival;
    var team = jobs.team;
    var size = jobs.size;
    var dur = jobs.dur;
    var n = c.jobs;
    var G = c.nodes * c.gpn;
    var gpn = c.gpn;
    var W = c.window;
    var horizon = arr[n - 1];
    var p = c.points;
    var free = new Int32Array(c.nodes).fill(gpn);
    var byFree = new Int32Array(gpn + 1);
    byFree[gpn] = c.nodes;
    var totalFree = G;
    var smallest = c.sizes[0];
    var i;
    for (i = 0; i < c.teams; i++) {
      smallest = Math.min(smallest, c.sizes[i % c.sizes.length]);
    }
    /* Running jobs by (end time, job), ascending; waiting jobs in arrival order (= job order). */
    var running = new Int32Array(Math.min(n, G));
    var nRun = 0;
    var endAt = new Float64Array(n);
    var queue = new Int32Array(n);
    var nQueue = 0;
    /* Where each running job is: its node, or (more than a node) its nodes from pool[at[j]]. */
    var at = new Int32Array(n);
    var pool = [];
    var nodesOf = new Int32Array(c.nodes);
    var start = new Float64Array(n);
    var usage = new Float64Array(c.teams);
    /* The GPU-time started so far (sim.rs: used), in an array: a double in a closure
       variable would be a new heap number at every launch. */
    var tot = new Float64Array(1);
    /* Each job's policy key parts that do not change (sim.rs: Sim::fixed): SJF's size x dur,
       the mix's weighted size factor. */
    var fixed = new Float64Array(n);
    for (i = 0; i < n; i++) {
      fixed[i] = c.policy === 1 ? size[i] * dur[i] :
        c.w_size * (1.0 / (1.0 + size[i] * dur[i] / (G * c.mean)));
    }
    /* The mix's fair-share factor per team, NaN until computed since the last launch (sim.rs:
       fair): it depends only on the team's usage and the total, which only a launch changes. */
    var fair = new Float64Array(c.teams).fill(NaN);
    /* The backfill's reservation: free GPUs per node after the releases, counted by free
       GPUs as byFree (sim.rs: Sim::spare). */
    var spare = new Int32Array(c.nodes);
    /* The view ahead (sim.rs: Ahead): the free GPUs at time ahAt[0] (an array: no heap number
       per write) with every job running now that ends by then released, counted by free GPUs;
       ahLeast, the size it is known earliest for (-1: not known). */
    var ahFree = new Int32Array(c.nodes);
    var ahBy = new Int32Array(gpn + 1);
    var ahTotal = 0;
    var ahAt = new Float64Array(1).fill(-Infinity);
    var ahLeast = -1;
    var orderKey = new Float64Array(W);
    /* The mix's keys of the window's jobs at the last best() (sim.rs: Sim::keys), all of them
       unless keysFresh is false. */
    var keyAt = new Float64Array(W);
    var keysFresh = false;
    /* The mix's last best (sim.rs: Sim::kept): its position (-1: none since a launch), the
       window's end then, and a lower bound of how much lower its key was than every other's. */
    var mixAt = -1;
    var mixEnd = 0;
    var mixMargin = new Float64Array(1);
    var slack = (c.w_age + c.w_size + c.w_fair) * 1e-9 + 1e-300;
    var orderJob = new Int32Array(W);

    /* Whether s GPUs fit on nodes counted by free GPUs in by, total free in all. */
    function fitsBy(by, total, s) {
      if (s > total) {
        return false;
      }
      if (s > gpn) {
        return by[gpn] * gpn >= s;
      }
      for (var k = s; k <= gpn; k++) {
        if (by[k] > 0) {
          return true;
        }
      }
      return false;
    }
    function fits(s) {
      return fitsBy(byFree, totalFree, s);
    }
    function take(node, k) {
      byFree[free[node]] -= 1;
      free[node] -= k;
      byFree[free[node]] += 1;
      totalFree -= k;
    }
    function give(node, k) {
      byFree[free[node]] -= 1;
      free[node] += k;
      byFree[free[node]] += 1;
      totalFree += k;
    }
    /* The mix's fair-share factor of team t (sim.rs: Sim::fair_of), kept until a launch. */
    function fairOf(t) {
      if (!(tot[0] > 0)) {
        return 1.0;
      }
      var f = fair[t];
      if (f !== f) {
        f = fair[t] = h.expA(0.0 - usage[t] / tot[0] * c.teams * 0.6931471805599453);
      }
      return f;
    }
    /* The policy's key of waiting job j at now: lower goes first (ties: the lower job). */
    function key(j, now) {
      if (c.policy === 0) {
        return arr[j];
      }
      if (c.policy === 1) {
        return fixed[j];
      }
      if (c.policy === 2) {
        return usage[team[j]];
      }
      var age = (now - arr[j]) / c.max_age;
      age = age < 1.0 ? age : 1.0;
      return 0.0 - (c.w_age * age + fixed[j] + c.w_fair * fairOf(team[j]));
    }
    /* The position in the queue of the best of the window's jobs (FIFO's is the oldest): key
       inlined per policy (a call would box every key it returns). */
    function best(now) {
      var end = nQueue < W ? nQueue : W;
      var b = 0;
      /* Doubles from the start: a variable that is once undefined holds boxed numbers. */
      var bk = 0.0;
      var k = 0.0;
      var q;
      if (c.policy === 0) {
        return 0;
      }
      if (c.policy === 1) {
        bk = fixed[queue[0]];
        for (q = 1; q < end; q++) {
          k = fixed[queue[q]];
          if (k < bk) {
            b = q;
            bk = k;
          }
        }
        return b;
      }
      if (c.policy === 2) {
        bk = usage[team[queue[0]]];
        for (q = 1; q < end; q++) {
          k = usage[team[queue[q]]];
          if (k < bk) {
            b = q;
            bk = k;
          }
        }
        return b;
      }
      var wAge = c.w_age;
      var wFair = c.w_fair;
      var maxAge = c.max_age;
      var any = tot[0] > 0;
      /* The last scan's best, if it is kept (sim.rs: Sim::best): only the jobs since compete. */
      var m = Infinity;
      var q0 = 0;
      b = -1;
      if (mixAt >= 0 && mixMargin[0] > slack) {
        var jh = queue[mixAt];
        var ah = (now - arr[jh]) / maxAge;
        if (ah < 1.0) {
          b = mixAt;
          bk = 0.0 - (wAge * ah + fixed[jh] + wFair * (any ? fair[team[jh]] : 1.0));
          m = mixMargin[0] - slack;
          q0 = mixEnd;
        }
      }
      keysFresh = q0 === 0;
      for (q = q0; q < end; q++) {
        var j = queue[q];
        var age = (now - arr[j]) / maxAge;
        age = age < 1.0 ? age : 1.0;
        var f = 1.0;
        if (any) {
          f = fair[team[j]];
          if (f !== f) {
            /* Read back from the array: a call's result would make f a boxed number. */
            fairOf(team[j]);
            f = fair[team[j]];
          }
        }
        k = 0.0 - (wAge * age + fixed[j] + wFair * f);
        keyAt[q] = k;
        if (b < 0 || k < bk) {
          m = b < 0 ? m : bk - k;
          b = q;
          bk = k;
        } else {
          m = k - bk < m ? k - bk : m;
        }
      }
      mixAt = b;
      mixEnd = end;
      mixMargin[0] = m;
      return b;
    }
    /* Starts the job at queue position pos on node (or the nodes in nodesOf). */
    function launch(pos, now, node) {
      var j = queue[pos];
      queue.copyWithin(pos, pos + 1, nQueue);
      nQueue -= 1;
      var s = size[j];
      if (s > gpn) {
        at[j] = pool.length;
        for (var a = 0; a < s / gpn; a++) {
          pool.push(nodesOf[a]);
          take(nodesOf[a], gpn);
        }
      } else {
        at[j] = node;
        take(node, s);
      }
      start[j] = now;
      var area = s * dur[j];
      usage[team[j]] += area;
      tot[0] += area;
      fair.fill(NaN);
      mixAt = -1;
      var end = now + dur[j];
      endAt[j] = end;
      if (c.backfill && end > ahAt[0] && ahAt[0] >= now) {
        release(j, -1);
      }
      var lo = 0;
      var hi = nRun;
      while (lo < hi) {
        var mid = (lo + hi) >>> 1;
        var r = running[mid];
        if (endAt[r] < end || (endAt[r] === end && r < j)) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      running.copyWithin(lo + 1, lo, nRun);
      running[lo] = j;
      nRun += 1;
    }
    function ahAdd(node, k) {
      ahBy[ahFree[node]] -= 1;
      ahFree[node] += k;
      ahBy[ahFree[node]] += 1;
      ahTotal += k;
    }
    /* Adds (sign 1) or takes back (-1) job j's GPUs in the view ahead. */
    function release(j, sign) {
      var s = size[j];
      if (s > gpn) {
        for (var a = 0; a < s / gpn; a++) {
          ahAdd(pool[at[j] + a], sign * gpn);
        }
      } else {
        ahAdd(at[j], sign * s);
      }
    }
    /* The first position in running of a job ending after t (past) or at or after t. */
    function from(t, past) {
      var lo = 0;
      var hi = nRun;
      while (lo < hi) {
        var mid = (lo + hi) >>> 1;
        var x = endAt[running[mid]];
        if (x < t || (past && x === t)) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }
    /* The shadow time of a blocked job of s GPUs (sim.rs: Sim::shadow): the view ahead moved
       to the earliest end of a running job at which it fits. */
    function shadow(s, now) {
      var r;
      var lo;
      if (ahAt[0] < now) {
        ahAt[0] = now;
        ahFree.set(free);
        ahBy.set(byFree);
        ahTotal = totalFree;
        ahLeast = -1;
      }
      if (fitsBy(ahBy, ahTotal, s)) {
        while (ahLeast < 0 || s < ahLeast) {
          lo = from(ahAt[0], false);
          var hi = from(ahAt[0], true);
          if (lo === hi) {
            break;
          }
          for (r = lo; r < hi; r++) {
            release(running[r], -1);
          }
          if (!fitsBy(ahBy, ahTotal, s)) {
            for (r = lo; r < hi; r++) {
              release(running[r], 1);
            }
            break;
          }
          ahAt[0] = endAt[running[lo - 1]];
        }
      } else {
        r = from(ahAt[0], true);
        var found = false;
        while (r < nRun && !found) {
          var e = endAt[running[r]];
          while (r < nRun && endAt[running[r]] === e) {
            release(running[r], 1);
            r++;
          }
          ahAt[0] = e;
          found = fitsBy(ahBy, ahTotal, s);
        }
        if (!found) {
          ahLeast = -1;
          return Infinity;
        }
      }
      ahLeast = s;
      return ahAt[0];
    }
    function schedule(now) {
      /* Nothing can start when no team's jobs fit, or when the window's smallest job does
         not fit (what fits is monotone in the size): the pass would change nothing (sim.rs:
         Sim::schedule). */
      var end = nQueue < W ? nQueue : W;
      /* The largest job that fits (sim.rs: Nodes::largest). */
      var one = gpn;
      while (one > 0 && byFree[one] === 0) {
        one--;
      }
      var largest = byFree[gpn] * gpn > one ? byFree[gpn] * gpn : one;
      if (smallest > largest) {
        return;
      }
      var q = 0;
      while (q < end && size[queue[q]] > largest) {
        q++;
      }
      if (q === end) {
        return;
      }
      var head = -1;
      while (nQueue > 0) {
        var pos = best(now);
        var s0 = size[queue[pos]];
        if (fits(s0)) {
          launch(pos, now, place(free, byFree, gpn, s0, nodesOf));
        } else {
          head = pos;
          break;
        }
      }
      if (head < 0 || !c.backfill) {
        return;
      }
      var s = size[queue[head]];
      var shadowT = shadow(s, now);
      if (shadowT === Infinity) {
        return;
      }
      var a;
      spare.set(ahFree);
      var hn = place(spare, ahBy, gpn, s, nodesOf);
      if (s > gpn) {
        for (a = 0; a < s / gpn; a++) {
          spare[nodesOf[a]] -= gpn;
        }
      } else {
        spare[hn] -= s;
      }
      var spareLeft = ahTotal - s;
      /* The other window jobs in policy order (ties: the older job), by insertion. */
      end = nQueue < W ? nQueue : W;
      var m = 0;
      for (q = 0; q < end; q++) {
        if (q === head) {
          continue;
        }
        var kq = c.policy === 3 && keysFresh ? keyAt[q] : key(queue[q], now);
        var jq = queue[q];
        var o = m;
        while (o > 0 && (orderKey[o - 1] > kq || (!(orderKey[o - 1] < kq) && orderJob[o - 1] > jq))) {
          orderKey[o] = orderKey[o - 1];
          orderJob[o] = orderJob[o - 1];
          o--;
        }
        orderKey[o] = kq;
        orderJob[o] = jq;
        m++;
      }
      /* Those that fit now start if they end by the shadow time or fit in the spare GPUs
         (none can once fewer are free than the smallest job, or more are needed than spare). */
      for (o = 0; o < m && totalFree >= smallest; o++) {
        var j = orderJob[o];
        var sj = size[j];
        var late = now + dur[j] > shadowT;
        if (!fits(sj) || (late && spareLeft < sj)) {
          continue;
        }
        var node = place(free, byFree, gpn, sj, nodesOf);
        if (late) {
          var ok = true;
          if (sj > gpn) {
            for (a = 0; a < sj / gpn; a++) {
              ok = ok && spare[nodesOf[a]] >= gpn;
            }
          } else {
            ok = spare[node] >= sj;
          }
          if (!ok) {
            continue;
          }
          if (sj > gpn) {
            for (a = 0; a < sj / gpn; a++) {
              spare[nodesOf[a]] -= gpn;
            }
          } else {
            spare[node] -= sj;
          }
          spareLeft -= sj;
        }
        var pj = 0;
        while (queue[pj] !== j) {
          pj++;
        }
        launch(pj, now, node);
      }
    }

    function edge(b) {
      return b + 1 === p ? horizon : horizon * (b + 1) / p;
    }
    var binBusy = new Float64Array(p);
    var binQueue = new Float64Array(p);
    var busyArea = 0.0;
    var idleWaiting = 0.0;
    var bin = 0;
    var now = 0.0;
    var next = 0;
    var makespan = 0.0;
    for (;;) {
      var ta = next < n ? arr[next] : Infinity;
      var tc = nRun > 0 ? endAt[running[0]] : Infinity;
      var t = tc <= ta ? tc : ta;
      if (t === Infinity) {
        break;
      }
      var stop = t < horizon ? t : horizon;
      var busy = G - totalFree;
      var fr = totalFree;
      var ql = nQueue;
      var t0 = now;
      while (t0 < stop) {
        var e = edge(bin);
        var seg = stop < e ? stop : e;
        var d = seg - t0;
        binBusy[bin] += busy * d;
        binQueue[bin] += ql * d;
        busyArea += busy * d;
        if (ql > 0) {
          idleWaiting += fr * d;
        }
        t0 = seg;
        if (seg === e && bin + 1 < p) {
          bin += 1;
        }
      }
      now = t;
      var done = 0;
      while (done < nRun && endAt[running[done]] === now) {
        var jd = running[done];
        var sd = size[jd];
        if (sd > gpn) {
          for (i = 0; i < sd / gpn; i++) {
            give(pool[at[jd] + i], gpn);
          }
        } else {
          give(at[jd], sd);
        }
        done += 1;
        makespan = now;
      }
      if (done > 0) {
        running.copyWithin(0, done, nRun);
        nRun -= done;
      }
      while (next < n && arr[next] === now) {
        queue[nQueue++] = next;
        next += 1;
      }
      schedule(now);
    }
    var waits = new Float64Array(n);
    var sum = 0.0;
    var maxWait = 0.0;
    var waited = 0.0;
    for (i = 0; i < n; i++) {
      waits[i] = start[i] - arr[i];
    }
    for (i = 0; i < n; i++) {
      sum += waits[i];
      if (waits[i] > maxWait) {
        maxWait = waits[i];
      }
      if (waits[i] > 0) {
        waited += 1.0;
      }
    }
    var tw = new Float64Array(c.teams);
    var tr = new Float64Array(c.teams);
    var tn = new Float64Array(c.teams);
    for (i = 0; i < n; i++) {
      var tj = team[i];
      tw[tj] += waits[i];
      var span = waits[i] + dur[i];
      tr[tj] += span > 0 ? dur[i] / span : 1.0;
      tn[tj] += 1.0;
    }
    var teamWait = [];
    var ratio = [];
    for (i = 0; i < c.teams; i++) {
      if (tn[i] > 0) {
        teamWait.push(tw[i] / tn[i]);
        ratio.push(tr[i] / tn[i]);
      } else {
        teamWait.push(NaN);
      }
    }
    var time = [];
    var busyS = [];
    var queued = [];
    var lo = 0.0;
    for (i = 0; i < p; i++) {
      var eb = edge(i);
      var wb = eb - lo;
      time.push(eb);
      busyS.push(wb > 0 ? binBusy[i] / (G * wb) : 0.0);
      queued.push(wb > 0 ? binQueue[i] / wb : 0.0);
      lo = eb;
    }
    /* Both percentiles from one sort (the waits are finite: no NaN, no -0). */
    waits.sort();
    return {
      busy: busyS,
      fragmentation: idleWaiting / (G * horizon),
      horizon: horizon,
      jain: lib["fleet::jain"](ratio),
      makespan: makespan,
      max_wait: maxWait,
      mean_wait: sum / n,
      p50_wait: h.percentileSorted(waits, 50),
      p99_wait: h.percentileSorted(waits, 99),
      queued: queued,
      team_wait: teamWait,
      time: time,
      utilization: busyArea / (G * horizon),
      waited: waited / n
    };
  }

  var cluster = function (m) {
    return run(config(m));
  };
  /* What a call charges (the Rust twin's sim::cost): jobs * (1 + window), 0 when unusable. */
  cluster.cost = function (m) {
    var j = m && Object.prototype.hasOwnProperty.call(m, "jobs") ? m.jobs : 2000;
    var w = m && Object.prototype.hasOwnProperty.call(m, "window") ? m.window : 64;
    var jj = typeof j === "number" ? h.whole(j, 1e6) : -1;
    var ww = typeof w === "number" ? h.whole(w, 1000) : -1;
    return jj < 0 || ww < 0 ? 0 : jj * (1 + ww);
  };
  lib["sim::cluster"] = cluster;
};
