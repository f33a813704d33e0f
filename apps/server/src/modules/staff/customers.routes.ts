import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  staffAuditTrailCall,
  staffChangeEmailCall,
  staffEndSessionsCall,
  staffOpenCustomerCall,
  staffRemoveFactorsCall,
  staffResendActivationCall,
  staffSearchCall,
  staffUnlockCall,
} from '@portal/contracts/staff';
import { staffOpenSharedViewCall } from '@portal/contracts/staff-shared-view';
import { route } from '../../platform/route';
import type { StaffMember } from '../../platform/staff-guard';
import type { StaffCall, StaffCustomers } from './customers.service';

/**
 * The console's calls on customers (issue 41 points 2-5), one line each: the guard has checked the staff
 * session, its role for the call and the CSRF token; the contract has checked the reason. Answers hold a
 * customer's details, so no cache keeps them.
 */
export async function customerRoutes(app: FastifyInstance, customers: StaffCustomers) {
  const callOf = (
    input: { staff: StaffMember | undefined; request: FastifyRequest; reply: FastifyReply },
    reason: string,
  ): StaffCall => {
    input.reply.header('cache-control', 'no-store');
    return {
      staff: input.staff!,
      reason,
      correlationId: input.request.correlationId,
      log: input.request.log,
    };
  };

  route(app, staffSearchCall, (input) =>
    customers.search(callOf(input, input.body.reason), input.body.query),
  );
  route(app, staffOpenCustomerCall, (input) =>
    customers.open(callOf(input, input.body.reason), input.params.customerId),
  );
  route(app, staffResendActivationCall, (input) =>
    customers.resendActivation(callOf(input, input.body.reason), input.params.customerId),
  );
  route(app, staffUnlockCall, (input) =>
    customers.unlock(callOf(input, input.body.reason), input.params.customerId),
  );
  route(app, staffEndSessionsCall, (input) =>
    customers.endSessions(callOf(input, input.body.reason), input.params.customerId),
  );
  route(app, staffRemoveFactorsCall, (input) =>
    customers.removeFactors(callOf(input, input.body.reason), input.params.customerId, input.body.kinds),
  );
  route(app, staffChangeEmailCall, (input) =>
    customers.changeEmail(callOf(input, input.body.reason), input.params.customerId, input.body.email),
  );
  route(app, staffOpenSharedViewCall, (input) =>
    customers.sharedView(callOf(input, input.body.reason), input.params.customerId, input.body.code),
  );
  route(app, staffAuditTrailCall, (input) =>
    customers.auditTrail(callOf(input, input.body.reason), input.params.customerId, input.body.cursor),
  );
}
