// The page's entry: its modules fetched one at a time, in dependency order, each finding the
// ones it imports loaded already. A burst of parallel requests would open a new connection per
// module, and the server's HTTP library (tiny_http) leaves a connection unserved while more new
// connections arrive at once than it has idle threads: the page could stall for seconds, or
// for good.
const ORDER = ['state.js', 'api.js', 'board.js', 'options.js', 'analysis.js', 'clock.js', 'review.js',
  'game.js', 'records.js', 'app.js'];

for (const name of ORDER) {
  await import('./' + name);
}
