import { router } from '@/server/api/trpc';
import {
  getAccountProcedure,
  getOnboardingProcedure,
  resetTestDataProcedure,
  signUpProcedure,
} from './account.procedures';

export const accountRouter = router({
  signUp: signUpProcedure,
  get: getAccountProcedure,
  onboarding: getOnboardingProcedure,
  resetTestData: resetTestDataProcedure,
});
