// npm's postinstall step of @voicebot/cli (see launcher.cjs's install()). If it cannot write,
// the Node launcher stays in place and still works: the install must not fail for it.
try {
  require("./launcher.cjs").install();
} catch (error) {
  console.warn(`@voicebot/cli: keeping the Node launcher (${error.message})`);
}
