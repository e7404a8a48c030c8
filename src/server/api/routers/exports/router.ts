import { router } from '@/server/api/trpc';
import {
  cancelExportProcedure,
  createExportProcedure,
  getExportProcedure,
  listExportsProcedure,
} from './exports.procedures';

export const exportsRouter = router({
  create: createExportProcedure,
  list: listExportsProcedure,
  get: getExportProcedure,
  cancel: cancelExportProcedure,
});
