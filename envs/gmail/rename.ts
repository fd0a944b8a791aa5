/** Bridge for a Directory rename (identity service): see ./store/rename.ts. */
export { renameGmailAddress } from './store/rename.ts'
