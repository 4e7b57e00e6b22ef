// The admin routes of Connect: plan, apply, undo a tool's config and import its upstream as a channel, in the home folder of the machine the gateway runs on.
import { CONNECT_TOOLS, type ConnectTool } from '../../../../shared/tool-config.ts';
import { invalid, notFound } from '../../errors.ts';
import type { AdminHandlers } from '../admin-handlers.ts';
import { applyConnect, importConnect, planConnect, undoConnect, type ConnectContext } from './connect.ts';

/** The tool a route names; another name answers 404 listing the tools. */
function toolOf(name: string): ConnectTool {
  if ((CONNECT_TOOLS as readonly string[]).includes(name)) return name as ConnectTool;
  throw notFound(`No tool "${name}" to connect: one of ${CONNECT_TOOLS.join(', ')}`, 'tool');
}

/** An optional string field of a query or body. */
function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw invalid(`${field} must be a string`, field);
  return value;
}

/** The handlers over the context the gateway gives at each call (its base URL is known once it listens). */
export function connectHandlers(
  contextOf: () => ConnectContext,
): Pick<AdminHandlers, 'planToolConfig' | 'applyToolConfig' | 'undoToolConfig' | 'importToolConfig'> {
  return {
    planToolConfig: ({ params, query }) =>
      planConnect(contextOf(), toolOf(params.tool), {
        model: optionalString(query['model'], 'model'),
        trustFolder: optionalString(query['trustFolder'], 'trustFolder'),
      }),
    applyToolConfig: ({ params, body }) => {
      const given = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
      return applyConnect(contextOf(), toolOf(params.tool), {
        model: optionalString(given['model'], 'model'),
        account: optionalString(given['account'], 'account'),
        trustFolder: optionalString(given['trustFolder'], 'trustFolder'),
      });
    },
    undoToolConfig: ({ params }) => undoConnect(contextOf(), toolOf(params.tool)),
    importToolConfig: ({ params, body }) => {
      const given = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
      return importConnect(contextOf(), toolOf(params.tool), optionalString(given['name'], 'name'));
    },
  };
}
