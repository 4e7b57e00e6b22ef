// Portrait group rules: create, list, update and delete an account's groups.
import type { Group, Page } from '../../../shared/portrait.ts';
import { publicId } from '../ids.ts';
import type { GroupRow, GroupsRepo } from '../storage/groups-repo.ts';
import type { Clock } from '../time.ts';
import { invalid, notFound } from '../errors.ts';
import type { Paging } from './paging.ts';
import { MESSAGES, type GroupCreateInput, type GroupUpdateInput } from './portrait-input.ts';
import { presentGroup, presentPage } from './portrait-present.ts';

/** Told after a group was created, updated or deleted, whichever client asked. */
export type GroupChangeListener = (group: GroupRow) => void;

/** Why the upstream reviewer would refuse a group with these fields (undefined when it would not): the group is then not kept. */
export type GroupRefusal = (group: {
  name?: string;
  description?: string;
  groupType?: string;
}) => { param: string; message: string } | undefined;

export class GroupsService {
  private readonly repo: GroupsRepo;
  private readonly clock: Clock;
  private readonly onChange: GroupChangeListener;
  private readonly onDeleted: GroupChangeListener;
  private readonly refusal: GroupRefusal;
  constructor(
    repo: GroupsRepo,
    clock: Clock,
    onChange: GroupChangeListener = () => {},
    onDeleted: GroupChangeListener = () => {},
    refusal: GroupRefusal = () => undefined,
  ) {
    this.repo = repo;
    this.clock = clock;
    this.onChange = onChange;
    this.onDeleted = onDeleted;
    this.refusal = refusal;
  }

  /** A 400 naming the field when the upstream reviewer would refuse these fields (every asset of the group would fail there). */
  private checkUpstream(group: Parameters<GroupRefusal>[0]): void {
    const refused = this.refusal(group);
    if (refused) throw invalid(refused.message, refused.param);
  }

  /** Deletes a group and its assets from this gateway; answers the group as it was and how many assets went with it. */
  delete(accountId: number, groupId: string): { group: Group; assets_deleted: number } {
    const row = this.repo.find(accountId, groupId);
    if (!row) throw notFound(MESSAGES.groupNotFound, 'group_id');
    const removed = this.repo.deleteWithAssets(row.id);
    this.onDeleted(row);
    return { group: presentGroup(row), assets_deleted: removed };
  }

  create(accountId: number, input: GroupCreateInput): Group {
    this.checkUpstream(input);
    const now = this.clock.now();
    const row = this.repo.insert({
      group_id: publicId('grp'),
      account_id: accountId,
      name: input.name,
      description: input.description,
      group_type: input.groupType,
      created_at: now,
      updated_at: now,
    });
    this.onChange(row);
    return presentGroup(row);
  }

  list(accountId: number, paging: Paging): Page<Group> {
    const { rows, total } = this.repo.page(accountId, paging.pageSize, paging.offset);
    return presentPage(paging, total, rows, presentGroup);
  }

  update(accountId: number, groupId: string, changes: GroupUpdateInput): Group {
    const row = this.repo.find(accountId, groupId);
    if (!row) throw notFound(MESSAGES.groupNotFound, 'group_id');
    this.checkUpstream(changes);
    this.repo.update(row.id, { ...changes, updated_at: this.clock.now() });
    const updated = this.repo.findByRef(row.id) ?? row;
    this.onChange(updated);
    return presentGroup(updated);
  }
}
