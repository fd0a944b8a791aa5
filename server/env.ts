/** The only place that reads process.env: defaults for `wsgym serve`. */
export const envDefaults = {
  host: process.env.WSGYM_HOST ?? '127.0.0.1',
  port: Number(process.env.WSGYM_PORT ?? 8080),
  controlPort: Number(process.env.WSGYM_CONTROL_PORT ?? 8081),
  adminToken: process.env.WSGYM_ADMIN_TOKEN ?? 'dev-admin-token',
  dataDir: process.env.WSGYM_DATA_DIR,
  openenvKey: process.env.WSGYM_OPENENV_KEY,
}
