/** What every staff route module receives: the staff routes plugin's options (staff-routes.ts). */
import type { AppContext } from '../context.ts';

export interface StaffDeps {
  context: AppContext;
}
