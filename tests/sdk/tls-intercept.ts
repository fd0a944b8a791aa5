import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { join } from 'node:path'
import { TLSSocket } from 'node:tls'

export type Intercept = {
  /** `http://127.0.0.1:PORT`, for `HTTPS_PROXY`. */
  proxyUrl: string
  /** The throwaway CA's certificate (PEM file), for the client's trust store (`rclone --ca-cert`). */
  caFile: string
  /** Every request answered, `STATUS METHOD host path?query` (tests read which endpoints a tool used). */
  seen: string[]
  close(): Promise<void>
}

/**
 * An HTTPS CONNECT proxy for tools that cannot be pointed at another endpoint (rclone talks to www.googleapis.com
 * and oauth2.googleapis.com only): it answers CONNECT for `hosts`, terminates TLS with a certificate signed by a CA
 * made here with openssl (no root, no /etc/hosts), and forwards the decrypted HTTP/1.1 requests to `target`.
 * CONNECT to any other host is refused.
 */
export async function startIntercept(dir: string, hosts: string[], target: string): Promise<Intercept> {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' })
  ssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=wsgym test CA',
  )
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', `/CN=${hosts[0]}`)
  writeFileSync(join(dir, 'leaf.ext'), `subjectAltName=${hosts.map((h) => `DNS:${h}`).join(',')}\n`)
  ssl(
    'x509',
    '-req',
    '-in',
    'leaf.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'leaf.ext',
    '-out',
    'leaf.pem',
  )
  const key = readFileSync(join(dir, 'leaf.key'))
  const cert = readFileSync(join(dir, 'leaf.pem'))
  const upstream = new URL(target)
  const seen: string[] = []

  // The decrypted side: an HTTP server fed TLS sockets, forwarding each request to the target unchanged.
  const inner = createServer((req: IncomingMessage, res: ServerResponse) => {
    const host = (req.socket as TLSSocket & { interceptHost?: string }).interceptHost ?? ''
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        // As a TLS-terminating proxy says so: the server hands back https URLs (resumable upload sessions).
        headers: { ...req.headers, 'x-forwarded-proto': 'https' },
      },
      (up) => {
        seen.push(`${up.statusCode} ${req.method} ${host} ${req.url}`)
        res.writeHead(up.statusCode ?? 502, up.headers)
        up.pipe(res)
      },
    )
    out.on('error', () => res.destroy())
    req.pipe(out)
  })
  const proxy: Server = createServer((_req, res) => res.writeHead(405).end())
  const sockets = new Set<Socket>()
  proxy.on('connect', (req: IncomingMessage, socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    const host = (req.url ?? '').replace(/:\d+$/, '')
    if (!hosts.includes(host)) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n')
      return
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    const tls = new TLSSocket(socket, { isServer: true, key, cert, ALPNProtocols: ['http/1.1'] })
    Object.assign(tls, { interceptHost: host })
    tls.on('error', () => socket.destroy())
    inner.emit('connection', tls)
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const port = (proxy.address() as AddressInfo).port
  return {
    proxyUrl: `http://127.0.0.1:${port}`,
    caFile: join(dir, 'ca.pem'),
    seen,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy()
        inner.close()
        proxy.close(() => resolve())
      }),
  }
}
