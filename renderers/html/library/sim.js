/* sim::cluster: twin of crates/engine/src/library/sim.rs, a discrete-event simulation of a GPU
   cluster. The same draws (stats.js's generator, expA and lnA, which that script puts in the
   helpers; the page carries it with this one), the same event order and tie-breaks and the
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
    var jobs = [];
    for (var i = 0; i < c.jobs; i++) {
      t = 0;
      for (var k = 1; k < c.teams; k++) {
        if (next[k] < next[t]) {
          t = k;
        }
      }
      var dur = c.lognormal ? h.expA(mu + sigma * normal()) : expo(c.mean);
      jobs.push({ arrival: next[t], team: t, size: size[t], dur: dur });
      next[t] += expo(gap[t]);
    }
    return jobs;
  }

  function place(free, gpn, s) {
    var out = [];
    var n;
    if (s > gpn) {
      for (n = 0; n < free.length && out.length / 2 < s / gpn; n++) {
        if (free[n] === gpn) {
          out.push(n, gpn);
        }
      }
      return out;
    }
    var best = -1;
    for (n = 0; n < free.length; n++) {
      if (free[n] >= s && (best < 0 || free[n] < free[best])) {
        best = n;
      }
    }
    return [best, s];
  }

  function fitsOn(free, gpn, s) {
    var n;
    if (s > gpn) {
      var whole = 0;
      for (n = 0; n < free.length; n++) {
        if (free[n] === gpn) {
          whole++;
        }
      }
      return whole * gpn >= s;
    }
    for (n = 0; n < free.length; n++) {
      if (free[n] >= s) {
        return true;
      }
    }
    return false;
  }

  function run(c) {
    var jobs = arrivals(c);
    var n = jobs.length;
    var G = c.nodes * c.gpn;
    var gpn = c.gpn;
    var horizon = jobs[n - 1].arrival;
    var p = c.points;
    var free = [];
    var byFree = [];
    var i;
    for (i = 0; i < c.nodes; i++) {
      free.push(gpn);
    }
    for (i = 0; i <= gpn; i++) {
      byFree.push(0);
    }
    byFree[gpn] = c.nodes;
    var totalFree = G;
    var running = [];
    var queue = [];
    var placed = [];
    var start = [];
    var usage = [];
    var used = 0.0;
    /* The mix's fair-share factor per team during one pass (sim.rs: fair), NaN until computed. */
    var fair = [];
    for (i = 0; i < n; i++) {
      placed.push(null);
      start.push(0.0);
    }
    for (i = 0; i < c.teams; i++) {
      usage.push(0.0);
    }

    function fits(s) {
      if (s > totalFree) {
        return false;
      }
      if (s > gpn) {
        return byFree[gpn] * gpn >= s;
      }
      for (var k = s; k <= gpn; k++) {
        if (byFree[k] > 0) {
          return true;
        }
      }
      return false;
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
    function key(j, now) {
      var job = jobs[j];
      if (c.policy === 0) {
        return job.arrival;
      }
      if (c.policy === 1) {
        return job.size * job.dur;
      }
      if (c.policy === 2) {
        return usage[job.team];
      }
      var age = (now - job.arrival) / c.max_age;
      age = age < 1.0 ? age : 1.0;
      var size = 1.0 / (1.0 + job.size * job.dur / (G * c.mean));
      var f = 1.0;
      if (used > 0) {
        if (fair[job.team] !== fair[job.team]) fair[job.team] = h.expA(0.0 - usage[job.team] / used * c.teams * 0.6931471805599453);
        f = fair[job.team];
      }
      return 0.0 - (c.w_age * age + c.w_size * size + c.w_fair * f);
    }
    function best(now) {
      for (var t = 0; t < c.teams; t++) fair[t] = NaN;
      var end = Math.min(queue.length, c.window);
      var b = 0;
      var bk = key(queue[0], now);
      for (var q = 1; q < end; q++) {
        var k = key(queue[q], now);
        if (k < bk) {
          b = q;
          bk = k;
        }
      }
      return b;
    }
    function launch(pos, now, at) {
      var j = queue.splice(pos, 1)[0];
      for (var a = 0; a < at.length; a += 2) {
        take(at[a], at[a + 1]);
      }
      placed[j] = at;
      start[j] = now;
      var area = jobs[j].size * jobs[j].dur;
      usage[jobs[j].team] += area;
      used += area;
      var end = now + jobs[j].dur;
      var lo = 0;
      var hi = running.length;
      while (lo < hi) {
        var mid = (lo + hi) >>> 1;
        var r = running[mid];
        if (r[0] < end || (r[0] === end && r[1] < j)) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      running.splice(lo, 0, [end, j]);
    }
    function schedule(now) {
      var head = -1;
      while (queue.length > 0) {
        var pos = best(now);
        var s0 = jobs[queue[pos]].size;
        if (fits(s0)) {
          launch(pos, now, place(free, gpn, s0));
        } else {
          head = pos;
          break;
        }
      }
      if (head < 0 || !c.backfill) {
        return;
      }
      var s = jobs[queue[head]].size;
      var spare = free.slice();
      var shadow = Infinity;
      var r = 0;
      var a;
      while (r < running.length) {
        var e = running[r][0];
        while (r < running.length && running[r][0] === e) {
          var at0 = placed[running[r][1]];
          for (a = 0; a < at0.length; a += 2) {
            spare[at0[a]] += at0[a + 1];
          }
          r++;
        }
        if (fitsOn(spare, gpn, s)) {
          shadow = e;
          break;
        }
      }
      if (shadow === Infinity) {
        return;
      }
      var hp = place(spare, gpn, s);
      for (a = 0; a < hp.length; a += 2) {
        spare[hp[a]] -= hp[a + 1];
      }
      var end = Math.min(queue.length, c.window);
      var order = [];
      for (var q = 0; q < end; q++) {
        if (q !== head) {
          order.push([key(queue[q], now), queue[q]]);
        }
      }
      order.sort(function (x, y) {
        return x[0] < y[0] ? -1 : (x[0] > y[0] ? 1 : x[1] - y[1]);
      });
      for (var o = 0; o < order.length; o++) {
        var j = order[o][1];
        var sj = jobs[j].size;
        if (!fits(sj)) {
          continue;
        }
        var at = place(free, gpn, sj);
        if (now + jobs[j].dur > shadow) {
          var ok = true;
          for (a = 0; a < at.length; a += 2) {
            if (spare[at[a]] < at[a + 1]) {
              ok = false;
            }
          }
          if (!ok) {
            continue;
          }
          for (a = 0; a < at.length; a += 2) {
            spare[at[a]] -= at[a + 1];
          }
        }
        launch(queue.indexOf(j), now, at);
      }
    }

    function edge(b) {
      return b + 1 === p ? horizon : horizon * (b + 1) / p;
    }
    var binBusy = [];
    var binQueue = [];
    for (i = 0; i < p; i++) {
      binBusy.push(0.0);
      binQueue.push(0.0);
    }
    var busyArea = 0.0;
    var idleWaiting = 0.0;
    var bin = 0;
    var now = 0.0;
    var next = 0;
    var makespan = 0.0;
    for (;;) {
      var ta = next < n ? jobs[next].arrival : Infinity;
      var tc = running.length > 0 ? running[0][0] : Infinity;
      var t = tc <= ta ? tc : ta;
      if (t === Infinity) {
        break;
      }
      var stop = t < horizon ? t : horizon;
      var busy = G - totalFree;
      var fr = totalFree;
      var ql = queue.length;
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
      while (running.length > 0 && running[0][0] === now) {
        var done = running.shift()[1];
        var at = placed[done];
        for (i = 0; i < at.length; i += 2) {
          give(at[i], at[i + 1]);
        }
        placed[done] = null;
        makespan = now;
      }
      while (next < n && jobs[next].arrival === now) {
        queue.push(next);
        next += 1;
      }
      schedule(now);
    }
    var waits = [];
    var sum = 0.0;
    var maxWait = 0.0;
    var waited = 0.0;
    for (i = 0; i < n; i++) {
      var w = start[i] - jobs[i].arrival;
      waits.push(w);
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
    var tw = [];
    var tr = [];
    var tn = [];
    for (i = 0; i < c.teams; i++) {
      tw.push(0.0);
      tr.push(0.0);
      tn.push(0.0);
    }
    for (i = 0; i < n; i++) {
      var job = jobs[i];
      tw[job.team] += waits[i];
      var span = waits[i] + job.dur;
      tr[job.team] += span > 0 ? job.dur / span : 1.0;
      tn[job.team] += 1.0;
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
    return {
      busy: busyS,
      fragmentation: idleWaiting / (G * horizon),
      horizon: horizon,
      jain: lib["fleet::jain"](ratio),
      makespan: makespan,
      max_wait: maxWait,
      mean_wait: sum / n,
      p50_wait: lib["stats::percentile"](waits, 50),
      p99_wait: lib["stats::percentile"](waits, 99),
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
