import type { OperationDeadline } from './operation-deadline';

/**
 * A running request's place among those allowed to run at once (http/admission.ts). While it waits for
 * something that is not work (the document budget), it lends the place to the next queued request.
 */
export interface LendableSlot {
  lend(): LentSlot;
}

export interface LentSlot {
  /**
   * Takes a place again, ahead of every queued request (it may hold documents of the budget already);
   * rejects with the deadline's reason if the deadline stops first.
   */
  takeBack(deadline: OperationDeadline): Promise<void>;
}
