/** A share of a search ranked in a worker thread: the ranking SQL over a range of note ids. */
export interface RankTask {
  /** The index file, and which opening of it (a rebuilt index is a new file at the same path). */
  file: string;
  opening: number;
  sql: string;
  parameters: (string | number)[];
}

export interface RankedNote {
  id: number;
  score: number;
}
