#include "tests/peer/simgrid_flows.hpp"

#if PLACESIM_HAVE_SIMGRID

#include <simgrid/s4u.hpp>
#include <string>

namespace placesim::peer {

namespace sg4 = simgrid::s4u;

namespace {

// SimGrid's settings for pure max-min (see the header); logs silenced. Its default numerical
// cut-offs are tightened: with surf/precision 1e-9 (actions within a nanosecond of done are
// done) and maxmin/precision 1e-5 (a link with under 1e-5 of its capacity left counts as full)
// its instants here stray up to 9.6e-7 relative from placesim's engine; with these, 1.6e-9.
// Small actor stacks (an actor per flow, 21,000 in all) take the test from 2 s to 1.2 s; no
// guard pages, so that each stack is one memory mapping and 50,000 flows (bench_flows) stay
// under Linux's default 65,536 mappings per process.
const char* const kArgs[] = {"placesim-peer",
                             "--log=root.thres:critical",
                             "--cfg=network/model:CM02",
                             "--cfg=network/TCP-gamma:0",
                             "--cfg=network/latency-factor:1",
                             "--cfg=network/bandwidth-factor:1",
                             "--cfg=network/weight-S:0",
                             "--cfg=network/crosstraffic:0",
                             "--cfg=contexts/stack-size:64",
                             "--cfg=contexts/guard-size:0",
                             "--cfg=surf/precision:1e-15",
                             "--cfg=maxmin/precision:1e-12"};

// Enough hosts that every flow has its own (source, destination) pair, hence its own route.
int hosts_for(std::size_t flows) {
  int h = 2;
  while (static_cast<std::size_t>(h) * (h - 1) < flows) ++h;
  return h;
}

// One zone per set: its hosts and split-duplex links, a route per flow (one direction only).
// Returns each flow's (source, destination).
std::vector<std::pair<sg4::Host*, sg4::Host*>> build_set(const FlowSet& set, std::size_t k, sg4::NetZone* root) {
  const std::string prefix = "set" + std::to_string(k);
  sg4::NetZone* zone = sg4::create_full_zone(prefix);
  zone->set_parent(root);
  std::vector<sg4::Host*> hosts;
  for (int h = 0, n = hosts_for(set.flows.size()); h < n; ++h) {
    hosts.push_back(zone->create_host(prefix + ".host" + std::to_string(h), 1.0));
  }
  std::vector<sg4::Link*> links;
  for (std::size_t l = 0; l < set.link_bw.size(); ++l) {
    links.push_back(zone->create_split_duplex_link(prefix + ".link" + std::to_string(l), set.link_bw[l])
                        ->set_latency(0)
                        ->seal());
  }
  // Flow i goes from host i / (n - 1) to the (i mod (n - 1))-th of the others.
  const std::size_t others = hosts.size() - 1;
  std::vector<std::pair<sg4::Host*, sg4::Host*>> ends;
  for (std::size_t i = 0; i < set.flows.size(); ++i) {
    const std::size_t src = i / others, j = i % others, dst = j < src ? j : j + 1;
    std::vector<sg4::LinkInRoute> route;
    for (const Hop& h : set.flows[i].route) {
      route.emplace_back(links[h.link], h.forward ? sg4::LinkInRoute::Direction::UP : sg4::LinkInRoute::Direction::DOWN);
    }
    zone->add_route(hosts[src]->get_netpoint(), hosts[dst]->get_netpoint(), nullptr, nullptr, route, false);
    ends.emplace_back(hosts[src], hosts[dst]);
  }
  zone->seal();
  return ends;
}

}  // namespace

std::optional<std::vector<std::vector<double>>> simgrid_completion_times(const std::vector<FlowSet>& sets) {
  int argc = static_cast<int>(std::size(kArgs));
  std::vector<char*> argv;
  for (const char* a : kArgs) argv.push_back(const_cast<char*>(a));
  std::vector<std::vector<double>> ends(sets.size());
  if (sets.empty()) return ends;
  sg4::Engine engine(&argc, argv.data());
  sg4::NetZone* root = sg4::create_full_zone("root");
  std::vector<std::vector<std::pair<sg4::Host*, sg4::Host*>>> pairs;
  for (std::size_t k = 0; k < sets.size(); ++k) {
    pairs.push_back(build_set(sets[k], k, root));
    ends[k].assign(sets[k].flows.size(), -1.0);
  }
  root->seal();
  // One set at a time, each from the instant the previous one ended: SimGrid's work per event
  // grows with every flow in flight (all 200 sets side by side took 7 s instead of 1.2 s).
  sg4::Actor::create("driver", pairs[0][0].first, [&sets, &pairs, &ends] {
    for (std::size_t k = 0; k < sets.size(); ++k) {
      const double base = sg4::Engine::get_clock();
      std::vector<sg4::ActorPtr> flows;
      for (std::size_t i = 0; i < sets[k].flows.size(); ++i) {
        const double start = base + static_cast<double>(sets[k].flows[i].start_us) * 1e-6;
        const std::uint64_t bytes = sets[k].flows[i].bytes;
        sg4::Host* const src = pairs[k][i].first;  // not a structured binding: clang 14 cannot capture one
        sg4::Host* const dst = pairs[k][i].second;
        double* end = &ends[k][i];
        flows.push_back(sg4::Actor::create("flow", src, [start, src, dst, bytes, end, base] {
          sg4::this_actor::sleep_until(start);
          sg4::Comm::sendto(src, dst, bytes);
          *end = sg4::Engine::get_clock() - base;
        }));
      }
      for (const sg4::ActorPtr& f : flows) f->join();
    }
  });
  engine.run();
  return ends;
}

}  // namespace placesim::peer

#else

namespace placesim::peer {

std::optional<std::vector<std::vector<double>>> simgrid_completion_times(const std::vector<FlowSet>&) {
  return std::nullopt;
}

}  // namespace placesim::peer

#endif
