// Runs the http-tests/cache-tests suite (https://github.com/http-tests/cache-tests) against Courier's HTTP
// cache: the suite's own server and test engine, with every test request sent by one
// `courier send --cache-dir DIR --json --retry 0 --show-secrets` process instead of a browser's fetch.
// Tests are the suite's browser selection (a private cache: no CDN-only tests).
//
// Usage (`make conformance` does this): node Conformance/cache-tests.mjs
//   CACHE_TESTS_DIR     a checkout of the suite (required)
//   CACHE_TESTS_COMMIT  the commit the figures in the README were measured at (a warning when it differs)
//   COURIER             the courier binary (default .build/release/courier)
//   CACHE_TESTS_ID      run one test and print what was sent and received
//   CACHE_TESTS_RESULTS write the suite's JSON results to this file
//   CACHE_TESTS_TRACE   append one line per courier run to this file: when, how long, what the cache decided
import { execFile, execFileSync, spawn } from 'node:child_process'
import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const suiteDir = process.env.CACHE_TESTS_DIR || ''
const pinned = process.env.CACHE_TESTS_COMMIT || ''
const courier = resolve(process.env.COURIER || '.build/release/courier')
const onlyId = process.env.CACHE_TESTS_ID || ''

if (!suiteDir || !existsSync(join(suiteDir, 'test-engine', 'client', 'runner.mjs'))) {
  console.error(`cache-tests not found at '${suiteDir}'. Get the suite and point CACHE_TESTS_DIR at it:
  git clone https://github.com/http-tests/cache-tests DIR && git -C DIR checkout ${pinned || 'COMMIT'}
  make conformance CACHE_TESTS_DIR=DIR
(it needs no npm packages: the engine's client and server use only node's own modules).`)
  process.exit(2)
}
if (!existsSync(courier)) {
  console.error(`no courier binary at ${courier}: run make release, or set COURIER`)
  process.exit(2)
}
if (pinned) {
  let head = ''
  try {
    head = execFileSync('git', ['-C', suiteDir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim()
  } catch {}
  if (head !== pinned) {
    console.error(`warning: ${suiteDir} is at ${head || 'an unknown commit'}; ` +
      `the figures were measured at ${pinned}`)
  }
}

/// A port nothing listens on now, for the suite's server (which takes its port from the environment).
async function freePort () {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

const port = await freePort()
const base = `http://127.0.0.1:${port}`
const work = mkdtempSync(join(tmpdir(), 'courier-cache-tests-'))
const cacheDir = join(work, 'cache')
process.on('exit', () => rmSync(work, { recursive: true, force: true }))

// The suite's server runs in a process of its own, configured as `npm run server` configures it, so that
// its clock and event loop are not held up by the client's work.
const serverEnvironment = {
  ...process.env,
  npm_config_protocol: 'http',
  npm_config_port: String(port),
  npm_config_pidfile: join(work, 'server.pid')
}
const server = spawn(process.execPath, [join(suiteDir, 'test-engine/server/server.mjs')], {
  env: serverEnvironment, stdio: ['ignore', 'pipe', 'inherit']
})
process.on('exit', () => server.kill())
await new Promise((resolve, reject) => {
  server.once('exit', code => reject(new Error(`the suite's server exited (${code})`)))
  server.stdout.on('data', function listening (chunk) {
    if (!String(chunk).includes('Listening on')) return
    server.stdout.off('data', listening)
    server.stdout.pipe(process.stdout) // what it logs for CACHE_TESTS_ID
    resolve()
  })
})

// A Fetch API cache mode as a browser applies it (Fetch standard, HTTP-network-or-cache fetch): the
// request header fields it adds, and the Courier cache mode that reads and writes the cache alike.
function applyCacheMode (mode, headers, args) {
  const has = name => headers.some(([header]) => header.toLowerCase() === name)
  if (mode === 'no-cache' && !has('cache-control')) headers.push(['Cache-Control', 'max-age=0'])
  if (mode === 'no-store' || mode === 'reload') {
    if (!has('pragma')) headers.push(['Pragma', 'no-cache'])
    if (!has('cache-control')) headers.push(['Cache-Control', 'no-cache'])
  }
  const courierMode = { 'no-store': 'bypass', reload: 'reload', 'only-if-cached': 'only-if-cached' }[mode]
  if (courierMode) args.push('--cache-mode', courierMode)
}

/// One test request through `courier send`, answered as the engine reads a fetch Response.
function courierFetch (url, init) {
  const args = ['send', init.method || 'GET', url, '--cache-dir', cacheDir, '--json', '--retry', '0',
    '--show-secrets']
  const fields = [...(init.headers || [])]
  applyCacheMode(init.cache, fields, args)
  for (const [name, value] of fields) args.push('-H', `${name}: ${value}`)
  if (init.body !== undefined) {
    // -d @FILE reads a file: a body is always passed as one, so it is sent as written.
    const file = join(work, `body-${Math.random().toString(36).slice(2)}`)
    writeFileSync(file, init.body)
    args.push('-d', `@${file}`)
  }
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const child = execFile(courier, args, { maxBuffer: 64 << 20, encoding: 'utf8' }, (error, stdout) => {
      let answer
      try { answer = JSON.parse(stdout) } catch {
        return reject(new TypeError(`courier printed no JSON: ${error ? error.message : stdout.slice(0, 200)}`))
      }
      if (process.env.CACHE_TESTS_TRACE) {
        const number = fields.find(([name]) => name === 'Req-Num')?.[1]
        appendFileSync(process.env.CACHE_TESTS_TRACE, [
          (started / 1000).toFixed(3), ((performance.now() - started) / 1000).toFixed(3),
          fields.find(([name]) => name === 'Test-ID')?.[1], number,
          answer.status, answer.cache, answer.age_s, answer.ttl_s, answer.attempts?.[0]?.timing?.total_ms,
          answer.cache_reason].join(' ') + '\n')
      }
      if (answer.status === null) {
        return reject(new TypeError(`fetch failed: ${answer.error ? answer.error.message : 'no response'}`))
      }
      const body = answer.body_encoding === 'base64' ? Buffer.from(answer.body, 'base64').toString('utf8')
        : (answer.body ?? '')
      const headers = new Headers()
      for (const [name, value] of answer.headers) headers.append(name, value)
      resolve({ status: answer.status, statusText: '', ok: answer.status >= 200 && answer.status < 300, headers,
                url, courier: answer, text: async () => body })
    })
    init.signal?.addEventListener('abort', () => child.kill('SIGTERM'))
  })
}

// The engine calls the global fetch: its own configuration and state requests go straight to its
// server, every test request goes through Courier.
const nodeFetch = globalThis.fetch
globalThis.fetch = (url, init = {}) =>
  String(url).startsWith(`${base}/test/`) ? courierFetch(String(url), init) : nodeFetch(url, init)

const { runTests, getResults } = await import(pathToFileURL(join(suiteDir, 'test-engine/client/runner.mjs')))
const { default: suites } = await import(pathToFileURL(join(suiteDir, 'tests/index.mjs')))

let selected = suites
if (onlyId) {
  selected = suites.map(suite => ({ ...suite, tests: suite.tests.filter(test => test.id === onlyId) }))
    .filter(suite => suite.tests.length > 0)
  if (selected.length === 0) { console.error(`no test named ${onlyId}`); process.exit(2) }
  selected[0].tests[0].dump = true
}

await runTests(selected, true, base) // true: the browser selection, a private cache's tests
const results = getResults()
if (process.env.CACHE_TESTS_RESULTS) {
  writeFileSync(process.env.CACHE_TESTS_RESULTS, JSON.stringify(results, null, 2))
}

// The one required case failed by decision: Set-Cookie is never written to the cache (see the README).
const deliberate = new Map([['headers-store-Set-Cookie', 'by decision: Set-Cookie is never stored']])
let passed = 0; let total = 0; let requiredPassed = 0; let required = 0; let unexpected = 0
const failures = []
for (const suite of selected) {
  for (const test of suite.tests) {
    if (!(test.id in results)) continue
    const ok = results[test.id] === true
    const isRequired = test.kind === undefined || test.kind === 'required'
    total += 1; passed += ok ? 1 : 0
    if (isRequired) { required += 1; requiredPassed += ok ? 1 : 0 }
    if (ok) continue
    const why = deliberate.get(test.id) ?? results[test.id].join(': ')
    if (isRequired && !deliberate.has(test.id)) unexpected += 1
    failures.push(`${isRequired ? 'required' : test.kind.padEnd(8)}  ${test.id}: ${why}`)
  }
}
failures.sort()
for (const line of failures) console.log(line)
console.log(`cache-tests ${pinned.slice(0, 12)}: required ${requiredPassed}/${required} passed, ` +
  `all ${passed}/${total}`)
process.exit(unexpected > 0 ? 1 : 0)
