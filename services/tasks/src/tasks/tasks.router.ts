import express, { type Response, type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  clientStatusInputSchema, clientStatusQuerySchema, TASK_MESSAGES, taskInputSchema, taskListQuerySchema, taskStatusSchema, taskUpdateSchema, upcomingQuerySchema,
  type TaskClientStatus,
} from '@ledgerline/contracts/tasks.contracts.ts';
import type { TaskService } from './task.service.ts';
import type { TaskStore } from './task.store.ts';

/** Spec 001 §7 "Tasks"; who may do what is TaskService's and access-rules.ts's business. */
export function createTasksRouter(deps: { api: ApiRegistry; tasks: TaskStore; service: TaskService; tokens: TokenVerifier; tenants: ServiceTenants }): Router {
  const { api, tasks, service, tenants } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];
  const taskId = (v: string | undefined) => parsePathId(v, TASK_MESSAGES.taskNotFound);
  // Client users are refused (403) before anything else of the request is read.
  const staff = async (res: Response) => {
    const t = await tenants.ofRequest(res);
    service.reach(t);
    return t;
  };

  api.route(router, { method: 'get', path: '/api/tasks', summary: 'Tasks within the caller\'s reach, soonest due first', query: taskListQuerySchema, before }, async ({ res, query }) => {
    const t = await tenants.ofRequest(res);
    return tasks.present(t.db, service.reach(t), await tasks.list(t.db, service.reach(t), query));
  });

  api.route(router, { method: 'post', path: '/api/tasks', summary: 'Create a task (the caller is its creator)', status: 201, body: taskInputSchema, before }, async ({ res, body }) => {
    const t = await tenants.ofRequest(res);
    const task = await service.create(t, body);
    return (await tasks.present(t.db, service.reach(t), [task]))[0];
  });

  api.route(router, { method: 'get', path: '/api/tasks/stats', summary: 'Counts of the caller\'s tasks by status, overdue and created this month', before }, async ({ res }) => {
    const t = await tenants.ofRequest(res);
    return tasks.stats(t.db, service.reach(t), todayIn(t.timeZone));
  });

  api.route(router, { method: 'get', path: '/api/tasks/overdue', summary: 'Open tasks due before today in the firm\'s time zone', before }, async ({ res }) => {
    const t = await tenants.ofRequest(res);
    return tasks.present(t.db, service.reach(t), await tasks.overdue(t.db, service.reach(t), todayIn(t.timeZone)));
  });

  api.route(router, { method: 'get', path: '/api/tasks/upcoming', summary: 'Open tasks due within the next days (default 7)', query: upcomingQuerySchema, before }, async ({ res, query }) => {
    const t = await tenants.ofRequest(res);
    return tasks.present(t.db, service.reach(t), await tasks.upcoming(t.db, service.reach(t), todayIn(t.timeZone), query.days));
  });

  api.route(router, { method: 'patch', path: '/api/tasks/:id', summary: 'Edit a task: only the fields sent change', body: taskUpdateSchema, before }, async ({ req, res, body, params }) => {
    const t = await staff(res);
    const id = taskId(params.id);
    // Defaults and "empty means none" transforms must not touch fields the body did not carry.
    const sent = new Set(Object.keys((req.body ?? {}) as object));
    const update = Object.fromEntries(Object.entries(body).filter(([k]) => sent.has(k)));
    const task = await service.update(t, id, update);
    return (await tasks.present(t.db, service.reach(t), [task]))[0];
  });

  api.route(router, { method: 'patch', path: '/api/tasks/:id/status', summary: 'Quick action: set the status (completedAt with completed, null when reopened)', body: taskStatusSchema, before }, async ({ res, body, params }) => {
    const t = await staff(res);
    const task = await service.setStatus(t, taskId(params.id), body.status, body.completedAt);
    return (await tasks.present(t.db, service.reach(t), [task]))[0];
  });

  api.route(router, { method: 'delete', path: '/api/tasks/:id', summary: 'Delete a task with its client statuses and reminders', before }, async ({ res, params }) => {
    const t = await staff(res);
    await service.remove(t, taskId(params.id));
    return { message: 'Task deleted successfully' };
  });

  api.route(router, { method: 'get', path: '/api/tasks/:id/client-statuses', summary: 'One status per client of the task (the caller\'s clients only)', query: clientStatusQuerySchema, before }, async ({ res, params, query }) => {
    const t = await staff(res);
    const task = await service.find(t, taskId(params.id));
    return tasks.clientStatuses(t.db, task.id, service.reach(t), query.statusFilter);
  });

  api.route(router, { method: 'patch', path: '/api/tasks/:taskId/client-status/:clientId', summary: 'Set one client\'s status and comments on a task', body: clientStatusInputSchema, before }, async ({ res, params, body }) => {
    const t = await staff(res);
    const id = taskId(params.taskId);
    const clientId = parsePathId(params.clientId, TASK_MESSAGES.clientNotFound);
    await service.setClientStatus(t, id, clientId, body.status, body.comments);
    const rows = await tasks.clientStatuses(t.db, id, service.reach(t));
    return rows.find((r) => r.clientId === clientId) as TaskClientStatus;
  });
  return router;
}
