import { parseNotes } from './parse-file';

// Piscina calls the default export with each parse task in a worker thread, and `rankNotes` by name.
export default parseNotes;
export { rankNotes } from './worker-ranking';
