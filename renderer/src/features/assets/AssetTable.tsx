// The paged asset table: filters by group, status and part of the name, sorted by age or name; statuses change live as events arrive.
import { ASSET_SORTS, type AssetSort } from '../../../../shared/admin-api.ts';
import { FIELD_LIMITS } from '../../../../shared/field-limits.ts';
import { ASSET_STATUSES, type AssetStatus } from '../../../../shared/portrait.ts';
import { TextFilter } from '../../components/TextFilter.tsx';
import { useStores } from '../../context.ts';
import { formatTime, useT } from '../../i18n/index.ts';
import { EmptyState, ErrorNote, Pager, Panel, Progress, StatusBadge } from '../../components/ui.tsx';

export function AssetTable() {
  const t = useT();
  const { assets, prefs } = useStores();
  const page = assets((state) => state.assets);
  const loading = assets((state) => state.assetsLoading);
  const error = assets((state) => state.assetsError);
  const filter = assets((state) => state.filter);
  const groups = assets((state) => state.groups);
  const selectedId = assets((state) => state.detail?.asset_id);
  const language = prefs((state) => state.language);
  const search = assets((state) => state.search);
  const sort = assets((state) => state.sort);
  const filtered = filter.groupId !== '' || filter.status !== '' || search !== '';
  return (
    <Panel
      title={t('assets')}
      actions={
        <div className="filters">
          <label>
            {t('group')}
            <select
              value={filter.groupId}
              onChange={(event) => void assets.getState().setFilter({ groupId: event.target.value })}
              aria-label={t('filterGroup')}
            >
              <option value="">{t('allGroups')}</option>
              {groups?.items.map((group) => (
                <option key={group.group_id} value={group.group_id}>
                  {group.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('status')}
            <select
              value={filter.status}
              onChange={(event) => void assets.getState().setFilter({ status: event.target.value as AssetStatus | '' })}
              aria-label={t('filterStatus')}
            >
              <option value="">{t('allStatuses')}</option>
              {ASSET_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </select>
          </label>
          <TextFilter
            label={t('searchName')}
            placeholder={t('searchNamePlaceholder')}
            value={search}
            maxLength={FIELD_LIMITS.assetName}
            onApply={(value) => void assets.getState().setSearch(value)}
          />
          <label>
            {t('sortBy')}
            <select
              value={sort}
              onChange={(event) => void assets.getState().setSort(event.target.value as AssetSort)}
              aria-label={t('sortBy')}
            >
              {ASSET_SORTS.map((item) => (
                <option key={item} value={item}>
                  {t(`sort_${item}`)}
                </option>
              ))}
            </select>
          </label>
        </div>
      }
    >
      <ErrorNote message={error} onRetry={() => void assets.getState().loadAssets()} />
      {loading && <Progress label={t('loading')} />}
      {page && page.total === 0 && (
        <EmptyState title={filtered ? t('noMatchTitle') : t('noAssetsTitle')}>{filtered ? t('noMatchBody') : t('noAssetsBody')}</EmptyState>
      )}
      {page && page.items.length > 0 && (
        <div className="table-scroll">
          <table className="table" aria-label={t('assets')}>
            <thead>
              <tr>
                <th>{t('name')}</th>
                <th>{t('assetType')}</th>
                <th>{t('status')}</th>
                <th>{t('reviewer')}</th>
                <th>{t('updated')}</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((asset) => (
                <tr
                  key={asset.asset_id}
                  data-asset-id={asset.asset_id}
                  className={asset.asset_id === selectedId ? 'selected' : undefined}
                  onClick={() => assets.getState().select(asset)}
                >
                  <td>
                    <button className="linkish" onClick={() => assets.getState().select(asset)}>
                      {asset.name || asset.url}
                    </button>
                    {asset.refresh_error && (
                      <span className="warn-text" title={asset.refresh_error}>
                        {' '}
                        ⚠
                      </span>
                    )}
                  </td>
                  <td>{asset.asset_type}</td>
                  <td>
                    <StatusBadge status={asset.status} />
                  </td>
                  <td className="muted small">{asset.reviewer ?? '—'}</td>
                  <td>{formatTime(language, Date.parse(asset.updated_at))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page && (
        <Pager
          page={page.page}
          pageSize={page.page_size}
          total={page.total}
          busy={loading}
          onPage={(next) => void assets.getState().loadAssets(next)}
        />
      )}
    </Panel>
  );
}
